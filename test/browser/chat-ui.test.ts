/**
 * The chat page of examples/chat-ui (React, `useStream` from `@langchain/langgraph-sdk/react`) in headless
 * Chromium, served by `npm run chat:example` as a user starts it. The browser is Debian's `chromium` package
 * driven by `playwright-core`, so nothing downloads a browser. Three journeys of a chat UI's end users, each on
 * the assistant protected by `sanitizeGraph` and on the raw one, asserting what the page shows:
 *
 * - Stop, then type again: Stop pressed while the search tool runs, then the next message.
 * - Dropped connection: the page reloaded mid-run (the run was sent with `onDisconnect: "cancel"`), then the next
 *   message on the same thread.
 * - Approval: an `interrupt()` approved (and, on another thread, rejected) from the page.
 *
 * Each run saves a screenshot of the repaired thread (sanitized, Stop then the next message) in the OS temp
 * folder; with UPDATE_SCREENSHOTS=1 it writes docs/images/chat-ui-stop-then-type.png instead.
 */
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { FRONT_ENDS, type FrontEnd } from "../../examples/chat-ui/page/front-ends.js";
import { spawnUntilReady, stopAll } from "../support/servers/processes.js";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const HOW_TO_INSTALL = "apt-get install -y chromium (as root), or set CHROMIUM_PATH to a Chromium or Chrome binary";
const chromiumFound = existsSync(CHROMIUM);
if (!chromiumFound) {
  if (process.env.CI === "true")
    throw new Error(
      `Chromium is missing at ${CHROMIUM}; CI requires it (.ci/run installs it). Install it: ${HOW_TO_INSTALL}`,
    );
  console.warn(`Skipping the chat page tests: no Chromium at ${CHROMIUM}. Install it: ${HOW_TO_INSTALL}`);
}

/** Flags for a headless Chromium that reaches nothing but the page. */
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** How long the search tool works: Stop and the reload happen well inside it. */
const SEARCH_DELAY_MS = 1500;

const SCREENSHOT =
  process.env.UPDATE_SCREENSHOTS === "1"
    ? fileURLToPath(new URL("../../docs/images/chat-ui-stop-then-type.png", import.meta.url))
    : join(tmpdir(), "chat-ui-stop-then-type.png");

const FIRST = "Weather in Paris?";
const NEXT = "And in Seoul?";
const ANSWER = 'Here is what I found: three results for "And in Seoul?"';
const PLACEHOLDER = "[No result was recorded for this tool call.]";
const CLOSING = "Assistant · inserted by the sanitizer [No reply was recorded after these tool results.]";
const EDITED = "Weather in Lyon?";
/** The strict model's copy of Bedrock's error for a tool call left without its result. */
const PROVIDER_ERROR = /^bedrock 400: Expected toolResult blocks at messages\.2\.content for the following Ids: \S+$/;

describe.skipIf(!chromiumFound)("the chat page (examples/chat-ui) in Chromium", () => {
  const started: ChildProcess[] = [];
  const contexts: BrowserContext[] = [];
  /** What the pages threw (uncaught errors); each test expects none. */
  const pageErrors: string[] = [];
  let url: string;
  let browser: Browser;

  beforeAll(async () => {
    const ready = /Chat page on (http:\/\/127\.0\.0\.1:\d+\/)/;
    const env = { ...process.env, PORT: "0", SEARCH_DELAY_MS: String(SEARCH_DELAY_MS) };
    const [server, launched] = await Promise.allSettled([
      spawnUntilReady("npm", ["run", "--silent", "chat:example"], { env, ready }, started),
      chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }),
    ]);
    if (launched.status === "fulfilled") browser = launched.value; // closed in afterAll either way
    if (server.status === "rejected") throw server.reason;
    if (launched.status === "rejected") throw launched.reason;
    url = server.value[1]!;
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
    expect(pageErrors.splice(0)).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await stopAll(started);
  });

  /** A fresh browser profile on the page, talking to `assistant`, sending what `client` sends (front-ends.ts). */
  async function openChat(assistant: string, client?: FrontEnd): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 820, height: 600 } });
    contexts.push(context);
    const page = await context.newPage();
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await page.goto(`${url}?assistant=${assistant}${client ? `&client=${client}` : ""}`);
    return page;
  }

  /** Types `text` into the message box as a person does, and sends it. */
  async function send(page: Page, text: string) {
    const box = page.getByRole("textbox", { name: "Message" });
    await box.pressSequentially(text, { delay: 15 });
    await page.getByRole("button", { name: "Send" }).click();
  }

  /** Sends the first question and waits until its search tool is working. */
  async function askAndWaitForSearch(page: Page) {
    await send(page, FIRST);
    // The page says so when the model's step has ended with its tool call; Stop comes a moment later.
    await page.getByRole("status").getByText("Running search…").waitFor();
    await page.waitForTimeout(300);
  }

  /** The message list as the user reads it, one string per message (the buttons on a message aside). */
  const transcript = async (page: Page) =>
    (
      await page.getByTestId("message").evaluateAll((items) =>
        items.map((item) =>
          Array.from(item.children)
            .filter((child) => child.tagName !== "BUTTON")
            .map((child) => (child as HTMLElement).innerText)
            .join(" "),
        ),
      )
    ).map((text) => text.replace(/\s+/g, " ").trim());

  /**
   * Sends the next message and waits for the outcome the user sees: the answer, or the error banner. Returns the
   * banner's text ("" when there is none) and the messages.
   */
  async function nextMessage(page: Page) {
    await page.getByRole("button", { name: "Send" }).and(page.locator(":enabled")).waitFor();
    await send(page, NEXT);
    await page.getByText(ANSWER).or(page.getByRole("alert")).first().waitFor();
    await page.getByRole("button", { name: "Stop" }).and(page.locator(":disabled")).waitFor();
    const alert = page.getByRole("alert");
    return { error: (await alert.count()) ? await alert.innerText() : "", messages: await transcript(page) };
  }

  /** The repaired thread: the stopped turn closed by the sanitizer's placeholders, then the answered one. */
  const REPAIRED = [
    `You ${FIRST}`,
    `Assistant Let me look that up. calls search({"query":"${FIRST}"})`,
    `Result of search · inserted by the sanitizer ${PLACEHOLDER}`,
    CLOSING,
    `You ${NEXT}`,
    `Assistant Let me look that up. calls search({"query":"${NEXT}"})`,
    `Result of search three results for "${NEXT}"`,
    `Assistant ${ANSWER}`,
  ];
  /** The raw thread: the stopped turn's call still unanswered, the next message, and no reply. */
  const WEDGED = [`You ${FIRST}`, `Assistant Let me look that up. calls search({"query":"${FIRST}"})`, `You ${NEXT}`];

  describe("Stop while the tool runs, then type again", () => {
    it("sanitized: the answer appears after the sanitizer's placeholders", async () => {
      const page = await openChat("agent");
      await askAndWaitForSearch(page);
      await page.getByRole("button", { name: "Stop" }).click();
      const outcome = await nextMessage(page);
      expect(outcome).toEqual({ error: "", messages: REPAIRED });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
    });

    it("raw: the page shows the provider's error and no answer", async () => {
      const page = await openChat("agent-raw");
      await askAndWaitForSearch(page);
      await page.getByRole("button", { name: "Stop" }).click();
      const outcome = await nextMessage(page);
      expect(outcome.error).toMatch(PROVIDER_ERROR);
      expect(outcome.messages).toEqual(WEDGED);
    });
  });

  /** Waits until no run works on `thread`, as the Agent Server reports it. */
  async function runEnded(thread: string) {
    for (;;) {
      const { status } = (await (await fetch(`${url}threads/${thread}`)).json()) as { status: string };
      if (status !== "busy") return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  describe.each(FRONT_ENDS)("as %s: Stop while the tool runs, then type again", (client) => {
    /**
     * Stops the first turn and types once the run has ended on the server: agent-chat-ui's Stop only closes its
     * resumable stream, so the run goes on (sooner, the server answers 422 "already running", raw alike), and by
     * then useStream has read the thread back after Stop, which assistant-ui's own Stop never does.
     */
    async function stopThenType(assistant: string) {
      const page = await openChat(assistant, client);
      await askAndWaitForSearch(page);
      await page.getByRole("button", { name: "Stop" }).click();
      await runEnded(new URL(page.url()).searchParams.get("thread")!);
      await page.getByRole("button", { name: "Send" }).and(page.locator(":enabled")).waitFor();
      return nextMessage(page);
    }

    it("sanitized: the next message is answered, the stopped call answered once, by the page", async () => {
      const outcome = await stopThenType("agent");
      // The page's own answer takes the placeholder's place. agent-chat-ui hides it, as it hides every stub, and by
      // its own rule the sanitizer's closing reply too (the example's `idPrefix: "do-not-render-"`).
      const shown = client === "assistant-ui" ? ['Result of search {"cancelled":true}', CLOSING] : [];
      const [asked, call, , , ...next] = REPAIRED;
      expect(outcome).toEqual({ error: "", messages: [asked, call, ...shown, ...next] });
    });

    /** Stops the first turn while the tool runs; the page is ready for the next click once the run has ended. */
    async function stopped() {
      const page = await openChat("agent", client);
      await askAndWaitForSearch(page);
      await page.getByRole("button", { name: "Stop" }).click();
      await runEnded(new URL(page.url()).searchParams.get("thread")!);
      await page.getByRole("button", { name: "Send" }).and(page.locator(":enabled")).waitFor();
      return page;
    }

    it("Regenerate the stopped reply, then one more message: both answered", async () => {
      const page = await stopped();
      await page.getByRole("button", { name: "Regenerate" }).click();
      await page.getByText(`Here is what I found: three results for "${FIRST}"`).waitFor();
      const outcome = await nextMessage(page);
      expect(outcome.error).toBe("");
      expect(outcome.messages.at(-1)).toBe(`Assistant ${ANSWER}`);
    });

    it("Edit the stopped question, then one more message: both answered", async () => {
      const page = await stopped();
      await page.getByRole("button", { name: "Edit" }).first().click();
      await page.getByRole("textbox", { name: "Edited message" }).fill(EDITED);
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByText(`Here is what I found: three results for "${EDITED}"`).waitFor();
      const outcome = await nextMessage(page);
      expect(outcome.error).toBe("");
      expect(outcome.messages).toContain(`You ${EDITED}`);
      expect(outcome.messages.at(-1)).toBe(`Assistant ${ANSWER}`);
      // agent-chat-ui renders none of the sanitizer's messages (its own rule); the others mark them.
      if (client === "agent-chat-ui")
        expect(outcome.messages.join("\n")).not.toMatch(/\[No (reply|result) was recorded/);
    });

    it("raw: the page shows the provider's error", async () => {
      const { error } = await stopThenType("agent-raw");
      expect(error).toMatch(/^bedrock 400: /);
    });
  });

  describe("the connection drops: the page is reloaded mid-run", () => {
    /** Reloads while the search works; the thread id in the URL brings the same thread back. */
    async function reloadMidRun(assistant: string) {
      const page = await openChat(assistant);
      await askAndWaitForSearch(page);
      const thread = new URL(page.url()).searchParams.get("thread");
      expect(thread).toBeTruthy();
      await page.reload();
      await page.getByText(FIRST, { exact: true }).waitFor();
      expect(new URL(page.url()).searchParams.get("thread")).toBe(thread);
      return nextMessage(page);
    }

    it("sanitized: the next message is answered", async () => {
      expect(await reloadMidRun("agent")).toEqual({ error: "", messages: REPAIRED });
    });

    it("raw: the next message fails with the provider's error", async () => {
      const outcome = await reloadMidRun("agent-raw");
      expect(outcome.error).toMatch(PROVIDER_ERROR);
      expect(outcome.messages).toEqual(WEDGED);
    });
  });

  it("an approval (interrupt()) resumed from the page: approve and reject read exactly as on the raw graph", async () => {
    async function decide(assistant: string, button: "Approve" | "Reject") {
      const page = await openChat(assistant);
      await send(page, "Email Bob");
      const approval = page.getByRole("group", { name: "Approval" });
      const question = await approval.getByRole("paragraph").innerText();
      const waiting = await transcript(page);
      await approval.getByRole("button", { name: button }).click();
      await page.getByText(/^Done: /).waitFor();
      expect(await approval.count()).toBe(0);
      expect(await page.getByRole("alert").count()).toBe(0);
      return { question, waiting, done: await transcript(page) };
    }
    const run = async (assistant: string) => ({
      approved: await decide(assistant, "Approve"),
      rejected: await decide(assistant, "Reject"),
    });
    const [sanitized, raw] = [await run("approval"), await run("approval-raw")];
    expect(sanitized).toEqual(raw);

    const call = 'Assistant calls send_email({"to":"bob@example.com","subject":"Hi","body":"Lunch?"})';
    expect(sanitized.approved.question).toBe("Approve sending this email? To bob@example.com: “Hi”, Lunch?");
    expect(sanitized.approved.waiting).toEqual(["You Email Bob", call]);
    expect(sanitized.approved.done).toEqual([
      "You Email Bob",
      call,
      "Result of send_email Email sent to bob@example.com",
      "Assistant Done: Email sent to bob@example.com",
    ]);
    expect(sanitized.rejected.done.slice(2)).toEqual([
      "Result of send_email Email cancelled by user",
      "Assistant Done: Email cancelled by user",
    ]);
  });
});
