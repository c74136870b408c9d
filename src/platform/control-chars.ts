// Text from the API (a description, a holder name, a metadata value) is whatever someone typed
// into a checkout: an escape sequence in it could repaint a terminal, retitle its window or hide
// a line, and a raw control character in a CSV file is read differently by every spreadsheet.
// Tables and CSV both take it through here before it is written.

/**
 * Terminal escape sequences, whole, so no parameter text is left behind ("[31m"): CSI (ESC [ or
 * 0x9B) up to its final byte; OSC, DCS, SOS, PM and APC strings up to their terminator (BEL,
 * ESC \ or ST); and two-byte escapes (ESC 7, ESC c, ESC ( B). An unterminated string is not
 * swallowed to the end of the text: its introducer goes with the other control characters.
 */
const ESCAPE_SEQUENCE =
  /(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]|(?:\x1b[\]PX^_]|[\x90\x98\x9d-\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)|\x1b[\x20-\x2f]*[\x30-\x7e]/g;

/** Tab, line feed, carriage return: they separate words, so they become a space. */
const LINE_BREAK_OR_TAB = /[\t\n\r]/g;

/** Every other C0 control, DEL and every C1 control. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * The text with escape sequences and control characters removed: one line, nothing a terminal
 * or a spreadsheet would act on. Tabs and line breaks become spaces, so words stay apart.
 */
export function withoutControls(text: string): string {
  // Most text has none: one scan, and an export's millions of cells are not copied three times.
  if (!ANY_CONTROL.test(text)) return text;
  return text.replace(ESCAPE_SEQUENCE, '').replace(LINE_BREAK_OR_TAB, ' ').replace(CONTROL, '');
}
