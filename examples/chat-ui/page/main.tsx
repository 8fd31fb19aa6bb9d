/// <reference lib="dom" />
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { Chat } from "./Chat.js";

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <Chat />
  </StrictMode>,
);
