/**
 * A new team user (email, password, firstName, lastName) outlives the machine it was created
 * with: the API keeps the user when the machine is destroyed. So a replacement, or a destroy
 * followed by an `up`, would ask for the same user again and get `409 a user with email ...
 * already exists`. Instead the machine goes to the team user who has that email, as preview
 * announced (machineReferences.ts); the user's password and names are left as they are.
 */
import type { VmApiClient } from "../../client/client";
import type { CreateMachineRequest } from "../../contract/requestSchemas";
import type { ProgressSink } from "../account/progress";

/** `body`, with the new-user fields replaced by `userId` when a team user already has the email. */
export async function withExistingTeamUser(
  client: VmApiClient,
  body: CreateMachineRequest,
  progress: ProgressSink,
): Promise<CreateMachineRequest> {
  if (body.email === undefined) return body;
  const email = body.email.toLowerCase();
  const user = (await client.users.list({ email: body.email })).find((u) => u.email.toLowerCase() === email);
  if (user === undefined) return body;
  progress(
    `machine ${body.machineName}: team user ${user.email} already exists (${user.id}); ` +
      "the machine is assigned to that user, whose password and names stay as they are",
  );
  const { email: _email, password: _password, firstName: _first, lastName: _last, ...rest } = body;
  return { ...rest, userId: user.id };
}
