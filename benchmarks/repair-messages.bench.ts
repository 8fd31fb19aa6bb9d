/**
 * npm run bench:engine — throughput of repairMessages alone, on clean and
 * broken ReAct histories of 1,000 and 10,000 messages (250 / 2,500 rounds of
 * human, tool call, tool result, answer). The full suite against the raw
 * savers is tracked separately; this one needs no services.
 */
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { repairMessages } from "../src/index.js";

function history(rounds: number, broken: boolean): BaseMessage[] {
  const out: BaseMessage[] = [];
  for (let r = 0; r < rounds; r++) {
    out.push(new HumanMessage({ id: `h${r}`, content: `question ${r}` }));
    out.push(new AIMessage({ id: `a${r}`, content: "", tool_calls: [{ id: `c${r}`, name: "search", args: {}, type: "tool_call" }] }));
    // Broken: every tenth round lost its tool result (pattern B mid-history).
    if (!(broken && r % 10 === 5)) out.push(new ToolMessage({ id: `t${r}`, content: "ok", tool_call_id: `c${r}` }));
    out.push(new AIMessage({ id: `f${r}`, content: `answer ${r}` }));
  }
  return out;
}

function messagesPerSecond(messages: BaseMessage[], minMs = 400): number {
  let iterations = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < minMs) {
    for (let i = 0; i < 20; i++) repairMessages(messages);
    iterations += 20;
    elapsed = performance.now() - start;
  }
  return (messages.length * iterations) / (elapsed / 1000);
}

const rows: string[] = ["| history | messages | messages/s |", "|---|---:|---:|"];
for (const rounds of [250, 2500]) {
  for (const broken of [false, true]) {
    const messages = history(rounds, broken);
    messagesPerSecond(messages, 100); // warm-up
    const rate = messagesPerSecond(messages);
    rows.push(`| ${broken ? "broken" : "clean"} | ${messages.length} | ${(rate / 1e6).toFixed(1)} M |`);
  }
}
console.log(rows.join("\n"));
