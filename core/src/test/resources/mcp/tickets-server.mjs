// A small stdio MCP server for the tests: one tool, "lookup", that answers with the ticket asked for and says whether
// it was started with a TICKETS_TOKEN (one that begins with tkt_) — and prints the token, so that
// the tests can see it masked wherever the output goes. Newline-delimited JSON-RPC on stdin/stdout, nothing else.
import readline from "node:readline";

const token = process.env.TICKETS_TOKEN ?? "";
const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  let msg;
  try { msg = JSON.parse(line); } catch { return; }
  if (msg.method === "initialize") {
    send({ jsonrpc: "2.0", id: msg.id, result: { protocolVersion: msg.params?.protocolVersion ?? "2024-11-05",
      capabilities: { tools: {} }, serverInfo: { name: "tickets", version: "1.0.0" } } });
  } else if (msg.method === "tools/list") {
    send({ jsonrpc: "2.0", id: msg.id, result: { tools: [{ name: "lookup", description: "Looks a ticket up",
      inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } }] } });
  } else if (msg.method === "tools/call") {
    const id = msg.params?.arguments?.id ?? "?";
    const ok = token.startsWith("tkt_");
    send({ jsonrpc: "2.0", id: msg.id, result: { content: [{ type: "text",
      text: `ticket ${id}: open; authorised=${ok}; token used: ${token}` }] } });
  } else if (msg.id !== undefined) {
    send({ jsonrpc: "2.0", id: msg.id, result: {} });
  }
});
