/**
 * multipart/form-data bodies, for createScript's file upload (docs/api.md, "Scripts": the
 * file travels as a part, the other parameters in the query string). The parsing is busboy's;
 * this module only collects what it found from a body already read and size-limited.
 */
import busboy from "busboy";
import { badRequest } from "../model/apiError";

/** One file part of an upload. */
export interface UploadedFile {
  /** The form field's name, e.g. `file`. */
  field: string;
  /** The file name the client gave, if any; never trusted as a path. */
  filename: string;
  data: Buffer;
}

/** What a multipart body held: its files, and the names of its text fields. */
export interface Upload {
  files: UploadedFile[];
  fieldNames: string[];
}

/** More parts than this is not an upload of one script; refused rather than collected. */
const MAX_PARTS = 32;

/** Whether `contentType` declares a multipart/form-data body. */
export function isMultipart(contentType: string): boolean {
  return /^multipart\/form-data\s*(;|$)/i.test(contentType);
}

/** Parses a complete multipart/form-data body; a malformed one is refused with 400. */
export function parseMultipart(contentType: string, raw: Buffer): Promise<Upload> {
  return new Promise((resolve, reject) => {
    const refuse = (reason: string) =>
      reject(badRequest(`request body is not valid multipart/form-data: ${reason}`));
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: { "content-type": contentType }, limits: { parts: MAX_PARTS } });
    } catch (error) {
      refuse((error as Error).message);
      return;
    }
    const upload: Upload = { files: [], fieldNames: [] };
    // busboy reports a part with an empty name (`name=""`) as undefined.
    parser.on("file", (field: string | undefined, stream: NodeJS.ReadableStream, info: busboy.FileInfo) => {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      // A body cut off inside a file fails the file's stream too; unhandled, it would end the process.
      stream.on("error", (error: Error) => refuse(error.message));
      stream.on("end", () =>
        upload.files.push({ field: field ?? "", filename: info.filename ?? "", data: Buffer.concat(chunks) }),
      );
    });
    parser.on("field", (name: string | undefined) => upload.fieldNames.push(name ?? ""));
    parser.on("partsLimit", () => refuse(`more than ${MAX_PARTS} parts`));
    parser.on("error", (error: Error) => refuse(error.message));
    parser.on("close", () => resolve(upload));
    parser.end(raw);
  });
}
