// /api/v1/session (console-api.md Security): who is signed in; sign in with a token
// (JSON or the sign-in form), or sign out.
import { z } from "zod";
import { noQuerySchema } from "./common";

export const sessionQuery = noQuerySchema;

export const sessionResponseSchema = z.object({
  actor: z.string(),
  role: z.enum(["admin", "viewer", "anonymous"]),
  can_write: z.boolean(),
  read_only: z.boolean(),
  reads_need_token: z.boolean(),
});
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

export const SIGNIN_MAX_BYTES = 4096;
export const signInBodySchema = z.object({
  token: z.string().max(1024).optional(),
  next: z.string().max(2048).optional(),
  action: z.literal("signout").optional(),
});

export const signedInResponseSchema = z.object({ actor: z.string(), role: z.enum(["admin", "viewer"]) });
export const signedOutResponseSchema = z.object({ signed_out: z.literal(true) });
