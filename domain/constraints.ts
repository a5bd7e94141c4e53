// domain/constraints: input rules written as data (a member's length, pattern, enum value set, range) and the one
// checker that turns the members breaking them into AWS's "N validation error(s) detected" ValidationError texts.
import { echo } from './errors.js';

/** What AWS's front end checks on one member, in the order it reports them (length first, then the rest). */
export interface Constraint {
  /** Longest value, in characters. */
  maxLength?: number;
  /** Longest value when it is an ARN (starts `arn:`), where that differs from `maxLength`. */
  maxLengthArn?: number;
  /** The pattern as AWS prints it; the whole value must match it (Java's `matches`). */
  pattern?: string;
  /** The enum value set in the order AWS prints it. */
  enum?: readonly string[];
  /** Smallest and largest number. */
  minValue?: number;
  maxValue?: number;
}

/** Rules by member name (AWS's PascalCase); the wire path is the member in lowerCamel. */
export type Constraints<I> = { readonly [M in keyof I]?: Constraint };

const pathOf = (member: string) => member[0].toLowerCase() + member.slice(1);
const fail = (value: unknown, path: string, rule: string) =>
  `Value '${echo(value)}' at '${path}' failed to satisfy constraint: Member must ${rule}`;

const COMPILED = new Map<string, RegExp>();
function whole(pattern: string): RegExp {
  let regex = COMPILED.get(pattern);
  if (!regex) COMPILED.set(pattern, (regex = new RegExp(`^(?:${pattern})$`)));
  return regex;
}

/** The problem one value makes with its rule, in AWS's words, or undefined. */
function problemOf(rule: Constraint, value: unknown, path: string): string | undefined {
  if (typeof value === 'string') {
    const max = value.startsWith('arn:') ? (rule.maxLengthArn ?? rule.maxLength) : rule.maxLength;
    // A length refusal leaves the value out (see tooLong in errors.ts), and a too long value is not matched further.
    if (max !== undefined && value.length > max)
      return `Value at '${path}' failed to satisfy constraint: Member must have length less than or equal to ${max}`;
    if (rule.pattern !== undefined && !whole(rule.pattern).test(value))
      return fail(value, path, `satisfy regular expression pattern: ${rule.pattern}`);
    if (rule.enum && !rule.enum.includes(value))
      return fail(value, path, `satisfy enum value set: [${rule.enum.join(', ')}]`);
  }
  if (typeof value === 'number') {
    if (rule.minValue !== undefined && value < rule.minValue)
      return fail(value, path, `have value greater than or equal to ${rule.minValue}`);
    if (rule.maxValue !== undefined && value > rule.maxValue)
      return fail(value, path, `have value less than or equal to ${rule.maxValue}`);
  }
  return undefined;
}

/** Every member of `input` that breaks its rule, in the rules' order, as AWS words each problem. */
export function constraintProblems<I extends object>(rules: Constraints<I>, input: I): string[] {
  const problems: string[] = [];
  for (const member of Object.keys(rules) as (keyof I & string)[]) {
    const value = input[member];
    const problem = value === undefined ? undefined : problemOf(rules[member]!, value, pathOf(member));
    if (problem) problems.push(problem);
  }
  return problems;
}
