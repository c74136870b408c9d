import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ClientConfirmation, ConfirmAtClient } from '../../ledger/actor.js';
import { withoutControls } from '../../platform/control-chars.js';

// The person at an agent's MCP client confirms a money move a rule lets them confirm
// (`policy add … --actor agent --confirm-at-client-up-to`): MCP elicitation, in form mode, one
// boolean. Only a plain "yes" sends: a decline, a cancel, a form without confirm true, an error or
// no answer in time send nothing. A client that cannot ask says so, and the move becomes an
// approval request instead (the money gate decides; see ledger/policy/gate.ts).

/** JSON-RPC's "method not found" (the SDK's ErrorCode.MethodNotFound, read without loading it here). */
const METHOD_NOT_FOUND = -32601;

/** How long the person at the client has to answer: past it, nothing is sent. */
export const CONFIRM_WAIT_MS = 120_000;

/** The question the client shows: the move in words (amount, card, buyer), and that nothing moves unless confirmed. */
export function confirmationMessage(ask: ClientConfirmation, agentName: string): string {
  return `An AI agent (${withoutControls(agentName)}) asks to send this money move through payctl:\n\n${withoutControls(ask.summary)}\n\nNothing is sent unless you confirm it.`;
}

/** A ConfirmAtClient that asks through `server`'s client: `unsupported` when the client cannot show a form. */
export function confirmAtClient(server: Pick<Server, 'getClientCapabilities' | 'elicitInput'>, agentName: () => string, waitMs = CONFIRM_WAIT_MS): ConfirmAtClient {
  return async (ask) => {
    if (!server.getClientCapabilities()?.elicitation?.form) return 'unsupported';
    try {
      const answer = await server.elicitInput(
        {
          mode: 'form',
          message: confirmationMessage(ask, agentName()),
          requestedSchema: {
            type: 'object',
            properties: { confirm: { type: 'boolean', title: 'Send it', description: withoutControls(ask.summary) } },
            required: ['confirm'],
          },
        },
        { timeout: waitMs },
      );
      if (answer.action === 'accept') return answer.content?.confirm === true ? 'accept' : 'decline';
      return answer.action;
    } catch (error) {
      // A client that said it could ask but does not know how: as one that cannot.
      if ((error as { code?: unknown }).code === METHOD_NOT_FOUND) return 'unsupported';
      // No answer in time, the client gone, an answer that is not the form: nothing is sent.
      return 'cancel';
    }
  };
}
