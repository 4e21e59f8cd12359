/** Baseline for benchmarks: a bare node:http server answering a fixed 10-item JSON list on PORT. */
import { createServer } from "node:http";

const body = JSON.stringify({ reviews: Array.from({ length: 10 }, (_, i) => ({ reviewId: String(i), rating: 5, title: "t", body: "b".repeat(200) })) });
createServer((_req, res) => {
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
}).listen(Number(process.env.PORT ?? 0), "127.0.0.1");
