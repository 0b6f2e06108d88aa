/**
 * The Machine's part of the client, which a machine needs beyond thin endpoint methods: its
 * endpoints (machines.ts), waiting for a state (waiting.ts), and finding what a create whose
 * answer was lost made (lateCreates.ts).
 */
export * from "./machines";
export * from "./waiting";
export * from "./lateCreates";
