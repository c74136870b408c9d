// Free text sent to the service (a reference, a description, a name, a metadata value) is stored
// there and shown later: in the provider's dashboard, in CSV a spreadsheet opens, on a terminal.
// A control character (a line break, an escape, a NUL) in it is refused before anything is sent:
// the way to hide something in a reference, or break the report it ends up in.

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** The same, but for a line break: in fields where payctl itself joins lines (a bolepix's instructions). */
const CONTROL_BUT_BREAKS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
const LINES_JOINED = new Set(['payment_method.billing_message_list.message']);

const NAMES: Record<number, string> = { 0x00: 'NUL', 0x09: 'a tab', 0x0a: 'a line break', 0x0d: 'a carriage return', 0x1b: 'an escape' };

export interface ControlFound {
  /** The field, dotted, array indexes left out ("metadata.order", "payment_method.instructions"). */
  path: string;
  /** "U+000A (a line break)" */
  character: string;
}

function describe(text: string): string {
  const code = (text.match(CONTROL)?.[0] ?? '\u0000').charCodeAt(0);
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return NAMES[code] ? `${hex} (${NAMES[code]})` : hex;
}

/** The first string in a request body, value or key, that holds a control character. */
export function controlCharacterIn(value: unknown, path: string[] = []): ControlFound | undefined {
  if (typeof value === 'string') {
    const field = path.join('.');
    const pattern = LINES_JOINED.has(field) ? CONTROL_BUT_BREAKS : CONTROL;
    return pattern.test(value) ? { path: field, character: describe(value.replace(LINES_JOINED.has(field) ? /\n/g : /(?!)/g, '')) } : undefined;
  }
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = controlCharacterIn(item, path);
      if (found) return found;
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (CONTROL.test(key)) return { path: [...path, key].join('.'), character: describe(key) };
      const found = controlCharacterIn(inner, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}
