// Runs openai-node's structured-output helpers against Loupe's chat sandbox: node
// openai_parse.mjs <baseURL> prints one JSON line per check, read by TestOpenAINodeParse.
import OpenAI from "openai";

const client = new OpenAI({ baseURL: process.argv[2], apiKey: "unused: the Loupe proxy adds the credential", maxRetries: 0 });
const schema = {
  type: "object",
  properties: {
    city: { type: "string" },
    unit: { type: "string", enum: ["celsius", "fahrenheit"] },
    days: { type: "array", items: { type: "object", properties: { date: { type: "string", format: "date" } }, required: ["date"], additionalProperties: false } },
  },
  required: ["city", "unit", "days"],
  additionalProperties: false,
};
const format = { type: "json_schema", json_schema: { name: "weather", strict: true, schema } };
const messages = [{ role: "user", content: "The weather in Oslo for two days." }];
const out = (name, value) => console.log(JSON.stringify({ name, value }));

const parsed = await client.chat.completions.parse({ model: "v0-1.0-md", messages, response_format: format });
out("parse", parsed.choices[0].message.parsed);

const stream = client.chat.completions.stream({ model: "v0-1.0-md", messages, response_format: format });
const final = await stream.finalChatCompletion();
out("stream", final.choices[0].message.parsed);

const object = await client.chat.completions.create({ model: "v0-1.0-md", messages: [{ role: "user", content: "A timer, as JSON" }], response_format: { type: "json_object" } });
out("json_object", Object.keys(JSON.parse(object.choices[0].message.content)));

try {
  await client.chat.completions.create({ model: "v0-1.0-md", messages: [{ role: "user", content: "hi" }, { role: "tool", tool_call_id: "call_nope", content: "42" }] });
  out("unknown tool_call_id", "accepted");
} catch (e) {
  out("unknown tool_call_id", { status: e.status, message: e.error?.message, param: e.error?.param });
}
