/**
 * A release host on loopback for the tests where the engine downloads the plugin by itself: it
 * serves the release tarball (tools/plugin/dist.sh) as `GET /<any prefix>/v<version>/<asset>`, as a
 * release host's URL template (`.../v${VERSION}`) has the engine ask for it, answers anything else
 * 404, and keeps every request it got.
 */
import * as fs from "fs";
import * as http from "http";
import * as path from "path";
import type { AddressInfo } from "net";

/** A running host. */
export interface ReleaseHost {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Every request, as `METHOD /path`, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** Serves `tarball` (the release of `version`) on a free port of 127.0.0.1. */
export function startReleaseHost(tarball: string, version: string): Promise<ReleaseHost> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    if (req.method === "GET" && req.url?.endsWith(`/v${version}/${path.basename(tarball)}`)) {
      res.writeHead(200, { "content-type": "application/gzip", "content-length": fs.statSync(tarball).size });
      fs.createReadStream(tarball).pipe(res);
      return;
    }
    res.writeHead(404).end();
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        requests,
        close: () => new Promise((done) => server.close(() => done())),
      }),
    ),
  );
}
