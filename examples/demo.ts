/**
 * npm run demo: a ReAct agent on the embedded MemorySaver. Its turn is
 * cancelled while a tool runs; the user then sends a new message.
 *   - on the raw saver, the strict Anthropic-style model rejects the history;
 *   - through SanitizingCheckpointer, the turn completes, and the repairs are printed.
 * It reuses the test fixtures (strict fake model, cancellation helpers) so the demo shows what the tests prove.
 */
import { MemorySaver } from "@langchain/langgraph";
import { SanitizingCheckpointer, type RepairEvent } from "../src/index.js";
import { cancelFirstTurn, nextTurn } from "../test/support/graphs/scenarios.js";

const line = (text = "") => console.log(text);
const thread = "demo-thread";

line("1. Raw MemorySaver: a turn is cancelled while its tool runs, then the user writes again.");
const raw = new MemorySaver();
await cancelFirstTurn(raw, "during-tools", thread);
try {
  await nextTurn(raw, "anthropic", thread);
  line("   unexpected: the raw saver's next turn succeeded");
  process.exitCode = 1;
} catch (error) {
  line(`   next turn FAILED: ${(error as Error).message}`);
}

line();
line("2. The same, through SanitizingCheckpointer(new MemorySaver()).");
const events: RepairEvent[] = [];
const sanitized = new SanitizingCheckpointer(new MemorySaver(), { onRepair: (event) => events.push(event) });
await cancelFirstTurn(sanitized, "during-tools", thread);
const { messages } = await nextTurn(sanitized, "anthropic", thread);
line(`   next turn succeeded: "${messages.at(-1)!.content}"`);
line();
line("   repairs made when the thread was loaded:");
for (const event of events) {
  for (const repair of event.repairs) {
    const detail = repair.toolCallId ? ` for ${repair.toolCallId}` : "";
    line(
      `   - [${repair.kind}] ${repair.action} ${(repair.message as { type: string }).type} at ${event.channel}[${repair.index}]${detail}`,
    );
  }
}
line();
line("   history the model saw:");
for (const m of messages) line(`   ${m.type.padEnd(5)} ${JSON.stringify(m.content).slice(0, 70)}`);
