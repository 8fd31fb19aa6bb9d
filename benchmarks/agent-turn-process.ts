/**
 * One app process of the agent-turn benchmark (see `dropInAgentTurn`): a graph on a fresh store of the backend
 * named in its arguments, on the raw saver or through the drop-in, with a thread of that many messages. It says
 * "ready", then runs one turn for each "turn" it is sent and answers "done"; "close" removes the store and exits.
 */
import { HumanMessage } from "@langchain/core/messages";
import { SanitizingCheckpointer } from "../src/index.js";
import { reactGraph } from "../test/support/graphs/react-graph.js";
import { fastPostgresFactory, memoryFactory, postgresFactory } from "../test/support/savers/savers.js";
import { FIRST_QUESTION, LOOKUP_RESULT, agentModel } from "../test/support/graphs/scenarios.js";
import { history } from "./histories.js";

const [backend, mode, size] = process.argv.slice(2);
const factory = [memoryFactory, postgresFactory, fastPostgresFactory].find((f) => f.name === backend);
if (factory === undefined || (mode !== "raw" && mode !== "drop-in"))
  throw new Error(`usage: <backend> raw|drop-in <messages>`);

const store = await factory.create();
const graph = reactGraph({
  model: agentModel("openai"),
  tools: { search: () => "Paris: 15°C", lookup: () => LOOKUP_RESULT },
}).compile(mode === "drop-in" ? new SanitizingCheckpointer(store) : store);
const config = { configurable: { thread_id: "bench-agent-turn" } };
await graph.updateState(config, { messages: history(Number(size)) }, "agent");

process.on("message", (message) => {
  if (message === "turn") {
    void graph.invoke({ messages: [new HumanMessage(FIRST_QUESTION)] }, config).then(() => process.send!("done"));
  } else {
    void factory.destroy(store).then(() => process.exit(0));
  }
});
process.send!("ready");
