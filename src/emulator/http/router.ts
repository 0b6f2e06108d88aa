/**
 * Path-template routing: `/machines/{machineId}/start` style templates, 404 route_not_found for an
 * unknown path and 405 method_not_allowed (with Allow) for a known path with the wrong method.
 */
import { ApiError } from "../model/apiError";

/** What a handler answers: a status and an optional JSON body (none for 204). */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Readonly<Record<string, string>>;
}

/** One route: method, path template and a handler over a context type. */
export interface Route<C> {
  method: "GET" | "POST" | "DELETE";
  template: string;
  /** Also takes a multipart/form-data body (createScript's file upload); otherwise JSON only. */
  multipart?: boolean;
  handle(context: C, params: Readonly<Record<string, string>>): Reply | Promise<Reply>;
}

/** A matched route with its decoded path parameters. */
export interface RouteMatch<C> {
  route: Route<C>;
  params: Record<string, string>;
}

/** 200 with a JSON body. */
export const ok = (body: unknown): Reply => ({ status: 200, body });
/** 204 with an empty body. */
export const noContent = (): Reply => ({ status: 204 });

/** Matches requests against a fixed list of routes. */
export class Router<C> {
  constructor(private readonly routes: readonly Route<C>[]) {}

  /** The path template a path belongs to (any method), for counting and fault rules. */
  templateOf(pathname: string): string | null {
    for (const route of this.routes)
      if (matchTemplate(route.template, pathname) !== null) return route.template;
    return null;
  }

  /** The route for method + path; throws 404 or 405 as an ApiError. */
  match(method: string, pathname: string): RouteMatch<C> {
    const allowed: string[] = [];
    for (const route of this.routes) {
      const params = matchTemplate(route.template, pathname);
      if (params === null) continue;
      if (route.method === method) return { route, params };
      allowed.push(route.method);
    }
    if (allowed.length === 0)
      throw new ApiError(404, "route_not_found", `no route for ${method} ${pathname}`);
    throw new ApiError(
      405,
      "method_not_allowed",
      `${method} is not allowed on ${pathname}; use ${allowed.join(" or ")}`,
      { Allow: allowed.join(", ") },
    );
  }
}

/** The parameters of `pathname` under `template`, or null when it does not match. */
export function matchTemplate(template: string, pathname: string): Record<string, string> | null {
  const want = template.split("/");
  const got = pathname.split("/");
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const name = /^\{(\w+)\}$/.exec(want[i])?.[1];
    if (name === undefined) {
      if (want[i] !== got[i]) return null;
      continue;
    }
    const value = safeDecode(got[i]);
    if (value === null || value === "") return null;
    params[name] = value;
  }
  return params;
}

function safeDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
