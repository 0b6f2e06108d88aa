/**
 * Request bodies on the wire: read with a size limit, then parsed by content type, JSON, or a
 * multipart upload where the route takes one. Messages never quote the body, which may hold a
 * password or a script.
 */
import type * as http from "node:http";
import { ApiError } from "../model/apiError";
import { isMultipart, parseMultipart, type Upload } from "./multipart";
import { jsonSyntaxReason } from "../../contract/formatIssues";
import { utf8Text } from "./validate";

/** Bodies above this are refused with 413 (scripts are 16 KB, so 1 MiB is generous). */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Up to this much is read and discarded so the 413 reaches the client; beyond it the socket closes. */
const DRAIN_LIMIT_BYTES = 16 * MAX_BODY_BYTES;

/** Reads the body up to MAX_BODY_BYTES; larger bodies are drained (up to a cap) and refused with 413. */
export function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const tooLarge = () =>
    new ApiError(413, "payload_too_large", `request body is larger than ${MAX_BODY_BYTES} bytes`, {
      Connection: "close",
    });
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > DRAIN_LIMIT_BYTES) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      else if (size > DRAIN_LIMIT_BYTES) reject(tooLarge());
    });
    req.on("end", () => (size > MAX_BODY_BYTES ? reject(tooLarge()) : resolve(Buffer.concat(chunks))));
    // A parse error (from clientError) or the client gone mid-body: a refusal, not an internal error.
    req.on("error", (error) =>
      reject(
        error instanceof ApiError
          ? error
          : new ApiError(400, "validation_failed", "the request body was cut off before its end"),
      ),
    );
  });
}

/** Whether a Content-Type declares JSON (`application/json`, or `application/<x>+json`), parameters aside. */
export function isJsonType(type: string): boolean {
  return /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type);
}

/** A request body as handlers see it: parsed JSON, or a multipart upload where the route takes one. */
export interface ParsedBody {
  body?: unknown;
  upload?: Upload;
}

/** An empty body is "no body"; anything else must be declared JSON (or, where taken, multipart). */
export async function parseBody(
  req: http.IncomingMessage,
  raw: Buffer,
  multipart: boolean,
): Promise<ParsedBody> {
  if (raw.length === 0) return {};
  const type = req.headers["content-type"] ?? "";
  if (multipart && isMultipart(type)) return { upload: await parseMultipart(type, raw) };
  if (!isJsonType(type)) {
    const wanted = multipart ? "application/json or multipart/form-data" : "application/json";
    throw new ApiError(
      415,
      "unsupported_media_type",
      `Content-Type must be ${wanted} for a request body (got ${type === "" ? "none" : JSON.stringify(type.slice(0, 100))})`,
    );
  }
  const text = utf8Text(raw);
  if (text === undefined) {
    throw new ApiError(400, "malformed_json", "request body is not valid JSON: it is not valid UTF-8");
  }
  try {
    return { body: JSON.parse(text) };
  } catch (error) {
    throw new ApiError(400, "malformed_json", `request body is not valid JSON: ${jsonSyntaxReason(error)}`);
  }
}
