import type { ArgsOf, OptionsOf } from '../verb.js';
import type { apiVerb } from './flags.js';
import type { Endpoint, HttpMethod } from '../../provider/endpoints.js';
import type { Factory } from '../../factory.js';
import { UncertainOutcomeError } from '../../api/client.js';
import { OutcomeUnknownError, UsageError } from '../../errors.js';
import { writeOut } from '../../output/write.js';
import { readInputFile, optionalString } from '../shared/input.js';
import { buildFields, fieldsAsQuery } from './fields.js';

// `payctl api`: any endpoint, with everything the built-in commands have (the profile's key, the
// marketplace prefix, retries, --dry-run, --debug, output formats). For operations payctl has no
// verb for yet, and for scripts that want the raw answer.

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'DELETE'];

export interface ApiRequest {
  endpoint: Endpoint;
  query: Record<string, string>;
  body?: unknown;
  headers: Record<string, string>;
  paginate: boolean;
}

/**
 * The path is relative to /v1 and gets the marketplace prefix like any command's; a path that
 * starts with /v1/ is taken as it is, and one that names a marketplace or the sandbox is not prefixed.
 */
export function endpointFor(method: HttpMethod, rawPath: string): { endpoint: Endpoint; query: Record<string, string> } {
  const [pathPart = '', search = ''] = rawPath.split('?', 2);
  let path = pathPart.replace(/^\/+/, '');
  let scoped = true;
  if (path.startsWith('v1/')) {
    path = path.slice(3);
    scoped = false;
  }
  if (path.startsWith('marketplaces/') || path.startsWith('sandbox/')) scoped = false;
  if (path === '' || /[{}\s]/.test(path)) throw new UsageError(`<path>: "${rawPath}" is not an API path (like /transactions or transactions/<id>)`);
  // A POST's outcome can be lost like a payment's: reported as unknown (exit 9) rather than guessed.
  const endpoint: Endpoint = { method, path: `/${path}`, marketplaceScoped: scoped, movesMoney: method === 'POST' };
  return { endpoint, query: Object.fromEntries(new URLSearchParams(search)) };
}

export async function buildApiRequest(ctx: Factory, args: ArgsOf<typeof apiVerb>, options: OptionsOf<typeof apiVerb>): Promise<ApiRequest> {
  const method = (args[0] ?? '').toUpperCase() as HttpMethod;
  if (!METHODS.includes(method)) throw new UsageError(`<method>: "${args[0] ?? ''}" is not one of ${METHODS.join(', ')}`);
  const { endpoint, query } = endpointFor(method, args[1] ?? '');
  const fields = await buildFields(options.rawField ?? [], options.field ?? []);
  const headers: Record<string, string> = {};
  for (const header of options.header ?? []) {
    const at = header.indexOf(':');
    if (at <= 0) throw new UsageError(`-H: "${header}" is not name:value`);
    headers[header.slice(0, at).trim()] = header.slice(at + 1).trim();
  }
  const input = optionalString(options.input);
  const paginate = options.paginate === true;
  if (paginate && method !== 'GET') throw new UsageError('--paginate goes with GET');
  const request: ApiRequest = { endpoint, query, headers, paginate };
  if (input !== undefined) {
    const text = await readInputFile(ctx, input, '--input');
    try {
      request.body = JSON.parse(text);
    } catch {
      throw new UsageError(`--input: ${input} is not JSON`);
    }
    // With a body from --input, fields go in the query string, as gh does.
    Object.assign(request.query, fieldsAsQuery(fields));
  } else if (method === 'GET' || method === 'DELETE') Object.assign(request.query, fieldsAsQuery(fields));
  else request.body = fields;
  return request;
}

export async function run(ctx: Factory, args: ArgsOf<typeof apiVerb>, options: OptionsOf<typeof apiVerb>): Promise<void> {
  const request = await buildApiRequest(ctx, args, options);
  ctx.out.preferOutput('json');
  await ctx.service.requireApiKey();
  const input = { query: request.query, headers: request.headers, ...(request.body !== undefined ? { body: request.body } : {}) };
  if (ctx.globals.dryRun) return ctx.service.printDryRun(request.endpoint, input);
  if (request.endpoint.method !== 'GET') await ctx.service.noteSandbox();
  if (request.paginate) {
    await ctx.out.list({ operation: request.endpoint, input, request: { limit: 0, all: true }, noun: 'items', columns: [{ key: 'id', header: 'ID' }] });
    return;
  }
  const api = await ctx.api();
  let answer: { text: string; contentType?: string | undefined };
  try {
    answer = await api.callText(request.endpoint, input);
  } catch (err) {
    // No command knows what this request does, so nothing can be looked up to tell: say so.
    if (err instanceof UncertainOutcomeError) {
      throw new OutcomeUnknownError(`${err.message}; the ${request.endpoint.method} may or may not have been applied: look the resource up before sending it again`, { cause: err });
    }
    throw err;
  }
  const { text, contentType } = answer;
  if (!text.trim()) return;
  if (/json/i.test(contentType ?? '') || /^\s*[[{]/.test(text)) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      await writeOut(ctx.io.stdout, text.endsWith('\n') ? text : `${text}\n`);
      return;
    }
    await ctx.out.render(body);
    return;
  }
  await writeOut(ctx.io.stdout, text.endsWith('\n') ? text : `${text}\n`);
}
