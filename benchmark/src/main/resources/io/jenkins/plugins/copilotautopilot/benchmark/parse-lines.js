// Benchmark peer: read a JSONL file line by line and JSON.parse each line (what any event consumer must do).
const fs = require("fs");
const readline = require("readline");
const rl = readline.createInterface({ input: fs.createReadStream(process.argv[2]), crlfDelay: Infinity });
let events = 0;
rl.on("line", (line) => {
  if (line.length > 0) {
    JSON.parse(line);
    events++;
  }
});
rl.on("close", () => console.log(events));
