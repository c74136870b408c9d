// The recording server fails a test whose stubs and requests do not match: a stubbed answer nobody
// asked for means the test did not exercise what it set up, and a request after the replies given
// were used (a retry, a second read) is one the test did not expect.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { RepliesInTurn, recordingServer, type RecordedRequest, type RecordingServer } from './recording-server.js';

/**
 * Expects the running test to fail at its end with exactly one error containing `fragment`, and
 * takes that failure back. Registered first, this hook runs after the server's own check (hooks
 * run last first), so it sees the error that check added.
 */
function failsAtItsEndWith(fragment: string): void {
  onTestFinished(({ task }) => {
    const result = task.result!;
    const errors = result.errors ?? [];
    const named = errors.filter((error) => error.message.includes(fragment));
    expect(named.map((error) => error.message)).toEqual([expect.stringContaining('a stub no request asked for proves nothing')]);
    result.errors = errors.filter((error) => !named.includes(error));
    if (result.errors.length === 0) result.state = 'pass';
  });
}

const get = (server: RecordingServer, path: string) => fetch(`${server.url}${path}`).then((answer) => answer.text());
const asked = (method: string, url: string): RecordedRequest => ({ method, url, path: url.split('?')[0]!, headers: {}, body: '' });

describe('stubs no request asked for', () => {
  it('a list reply never reached is named by its place, its answer and the requests that came', async () => {
    const server = await recordingServer([{ status: 200, body: { ok: 1 } }, { status: 503, body: { busy: true } }]);
    await get(server, '/v1/first');
    expect(server.unusedStubs()).toEqual(['reply 2 of 2 (HTTP 503 {"busy":true}) was never asked for (the requests that came: GET /v1/first)']);
    await get(server, '/v1/second');
    expect(server.unusedStubs()).toEqual([]);
    await server.close();
  });

  it('a route function never called is named by its source', async () => {
    const server = await recordingServer(function answerAnything() {
      return { status: 200 };
    });
    expect(server.unusedStubs()).toEqual([expect.stringMatching(/^the route function answerAnything\(\) \{ return \{ status: 200 \}; \} was never asked anything \(no request came\)$/)]);
    await get(server, '/v1/anything');
    expect(server.unusedStubs()).toEqual([]);
    await server.close();
  });

  it('a server with no stubs names any request that came to it', async () => {
    failsAtItsEndWith('POST /v1/transactions?limit=1 came to a server with no stub for it');
    const server = await recordingServer([]);
    expect(server.unusedStubs()).toEqual([]);
    const answer = await fetch(`${server.url}/v1/transactions?limit=1`, { method: 'POST' });
    expect(answer.status).toBe(500);
    expect(server.unusedStubs()).toEqual(['POST /v1/transactions?limit=1 came to a server with no stub for it']);
    await server.close();
  });

  it('replies taken in turn by a route must all be taken, each once', async () => {
    failsAtItsEndWith('request 4 (POST /v1/again) came after the 3 replies given were used');
    const replies = new RepliesInTurn([{ status: 201 }, { destroy: true }, { hang: true }]);
    expect(replies.next(asked('POST', '/v1/one'))).toEqual({ status: 201 });
    expect(replies.unused()).toEqual(['reply 2 of 3 taken in turn (drop the connection) was never asked for', 'reply 3 of 3 taken in turn (never answer) was never asked for']);
    replies.next(asked('POST', '/v1/two'));
    expect(replies.next(asked('POST', '/v1/three'))).toEqual({ hang: true });
    expect(replies.unused()).toEqual([]);
    expect(replies.next(asked('POST', '/v1/again'))).toMatchObject({ status: 500 });
    expect(replies.unused()).toEqual(['request 4 (POST /v1/again) came after the 3 replies given were used: a retry or a read the test did not expect']);
  });

  it('each reply answers once: a request after the last is answered 500 and named', async () => {
    failsAtItsEndWith('request 2 (GET /v1/again?page=2) came after the reply given was used');
    const server = await recordingServer([{ status: 200, body: { ok: 1 } }]);
    expect(await get(server, '/v1/once')).toBe('{"ok":1}');
    expect(server.unusedStubs()).toEqual([]);
    const again = await fetch(`${server.url}/v1/again?page=2`);
    expect(again.status).toBe(500);
    expect(server.unusedStubs()).toEqual(['request 2 (GET /v1/again?page=2) came after the reply given was used: a retry or a read the test did not expect']);
    await server.close();
  });

  it('a test that sends one request too many fails when it ends, naming the request', async () => {
    failsAtItsEndWith('request 3 (POST /v1/transactions) came after the 2 replies given were used');
    const server = await recordingServer([{ status: 503 }, { status: 201 }]);
    for (let sent = 0; sent < 3; sent += 1) await fetch(`${server.url}/v1/transactions`, { method: 'POST' });
    await server.close();
  });

  it('emptying the requests between runs does not restart the replies', async () => {
    failsAtItsEndWith('request 2 (GET /v1/second) came after the reply given was used');
    const server = await recordingServer([{ status: 200 }]);
    await get(server, '/v1/first');
    server.requests.length = 0;
    await get(server, '/v1/second');
    expect(server.requests.map((request) => request.path)).toEqual(['/v1/second']);
    await server.close();
  });

  it('a test that leaves a stub unused fails when it ends, naming the stub', async () => {
    failsAtItsEndWith('reply 2 of 2 (HTTP 204) was never asked for (the requests that came: GET /v1/ping)');
    const server = await recordingServer([{ status: 200 }, { status: 204 }]);
    await get(server, '/v1/ping');
    await server.close();
  });

  it('so does a test whose route function was never called', async () => {
    failsAtItsEndWith('the route () => ({ status: 200 }) was never asked anything (no request came)');
    const server = await recordingServer(() => ({ status: 200 }));
    await server.close();
  });

  it('and one whose replies taken in turn were not all taken', () => {
    failsAtItsEndWith('reply 1 of 1 taken in turn (HTTP 200) was never asked for');
    new RepliesInTurn([{ status: 200 }]);
  });

  describe('a server made outside a test', () => {
    let server: RecordingServer;
    beforeAll(async () => {
      server = await recordingServer([{ status: 200 }, { status: 202 }]);
    });
    afterAll(async () => {
      await expect(server.close()).rejects.toThrow(/reply 2 of 2 \(HTTP 202\) was never asked for \(the requests that came: GET \/v1\/once\)/);
    });

    it('is checked when it closes, after the tests that share it', async () => {
      await get(server, '/v1/once');
      expect(server.requests).toHaveLength(1);
    });
  });
});
