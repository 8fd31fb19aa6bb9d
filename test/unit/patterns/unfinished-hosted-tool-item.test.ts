// Pattern U: a Responses hosted-tool item stored before it finished.
import { AIMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { repairMessages } from "../../../src/index.js";
import { expectAcceptedByAllProviders } from "../../support/oracle/expect-accepted.js";
import { human } from "../../support/generators/messages.js";
import { providerError } from "../../support/oracle/provider-rejections.js";

const reasoning = { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "enc" };
const search = (status: string) => ({
  type: "web_search_call",
  id: "ws_1",
  status,
  action: { type: "search", query: "weather" },
});
const message = {
  type: "message",
  id: "msg_1",
  role: "assistant",
  status: "completed",
  content: [{ type: "output_text", text: "Sunny.", annotations: [] }],
};

describe("pattern U: an unfinished hosted-tool item", () => {
  it.each(["in_progress", "searching", "incomplete"])(
    "drops a web search stored %s from the replayed output, whole, with the reasoning it leaves lone",
    (status) => {
      const stored = new AIMessage({
        id: "a1",
        content: "Sunny.",
        additional_kwargs: { reasoning },
        response_metadata: {
          output: [reasoning, search(status), message],
          model_provider: "openai",
          status: "incomplete",
        },
      });
      const broken = [human("h1"), stored, human("h2")];
      expect(providerError("openai-responses", broken)).toMatch(/Item with id 'ws_1' not found/);

      const { messages, repairs } = repairMessages(broken);
      const output = (messages[1] as AIMessage).response_metadata.output as unknown[];
      expect(output).toEqual([reasoning, message]);
      output.forEach((item, i) => expect(item).toBe([reasoning, message][i]));
      expect(repairs[0]).toMatchObject({
        code: "U",
        kind: "unfinished-hosted-tool-item",
        action: "rewritten",
        original: stored,
      });
      expectAcceptedByAllProviders(messages);
    },
  );

  it("then drops a reasoning item left with nothing after it, from the output and from additional_kwargs", () => {
    const stored = new AIMessage({
      id: "a1",
      content: "Searching",
      additional_kwargs: { reasoning },
      response_metadata: { output: [reasoning, search("searching")], model_provider: "openai", status: "incomplete" },
    });
    const { messages, repairs } = repairMessages([human("h1"), stored]);
    expect(repairs.filter((r) => r.action === "rewritten").map((r) => r.code)).toEqual(["U", "P"]);
    expect((messages[1] as AIMessage).response_metadata.output).toEqual([]);
    expect((messages[1] as AIMessage).additional_kwargs.reasoning).toBeUndefined();
    expectAcceptedByAllProviders([...messages, human("h2")]);
  });

  it("drops an unfinished item from the tool outputs ChatOpenAI sends without output, and keeps finished ones", () => {
    const running = { type: "code_interpreter_call", id: "ci_1", status: "interpreting", code: "1+1" };
    const done = { type: "code_interpreter_call", id: "ci_0", status: "completed", code: "2+2" };
    const stored = new AIMessage({
      id: "a1",
      content: "Let me compute",
      additional_kwargs: { tool_outputs: [done, running] },
    });
    const broken = [human("h1"), stored, human("h2")];
    expect(providerError("openai-responses", broken)).toMatch(/Item with id 'ci_1' not found/);
    const { messages } = repairMessages(broken);
    expect((messages[1] as AIMessage).additional_kwargs.tool_outputs).toEqual([done]);
  });

  it("leaves finished and failed items alone", () => {
    const history = [
      human("h1"),
      new AIMessage({
        id: "a1",
        content: "Sunny.",
        response_metadata: { output: [reasoning, search("completed"), search("failed"), message] },
      }),
    ];
    expect(repairMessages(history).messages).toBe(history);
  });
});
