// handlers: the shape of every service's ACTIONS table, total over its model's operations (an operation without a
// row does not compile), and the one typed step from a row to the handler the protocol calls with decoded input.

/** The row of an operation of the model that cfn-local does not serve: the service answers its NotImplemented. */
export const NOT_IMPLEMENTED: unique symbol = Symbol('NotImplemented');
export type NotImplemented = typeof NOT_IMPLEMENTED;

/** Rows for the operations cfn-local does not serve, by name (each service keeps its list beside its table). */
export function notImplemented<const N extends string>(names: readonly N[]): Readonly<Record<N, NotImplemented>> {
  return Object.fromEntries(names.map((name) => [name, NOT_IMPLEMENTED])) as Record<N, NotImplemented>;
}

type Decoded = Record<string, unknown>;

/** A handler as the protocol holds it: input and output as plain objects, walked by the model's shapes. */
export type DecodedHandler<Ctx> = (ctx: Ctx, input: Decoded) => Promise<Decoded | undefined>;

/** What any row of any table is, seen from outside: a handler of some input, or NOT_IMPLEMENTED. */
type AnyRow<Ctx> = ((ctx: Ctx, input: never) => unknown) | NotImplemented;

/**
 * The row of `action`: its handler, NOT_IMPLEMENTED, or undefined for a name the table (the model) lacks. The decoder
 * builds each input from its operation's model shape and the encoder walks each output by it, and generated/<service>.ts
 * types each handler from that same model: this is the one place that trusts it.
 */
export function rowOf<Ctx>(
  table: Readonly<Record<string, AnyRow<Ctx>>>,
  action: string,
): DecodedHandler<Ctx> | NotImplemented | undefined {
  if (!Object.hasOwn(table, action)) return undefined;
  const row = table[action];
  if (row === NOT_IMPLEMENTED) return NOT_IMPLEMENTED;
  const handler = row as (ctx: Ctx, input: Decoded) => Decoded | undefined | Promise<Decoded | undefined>;
  return async (ctx, input) => handler(ctx, input);
}
