/**
 * Declaring the rules a check decides, once. `declareRules(...)` takes the
 * rule ids and answers the check's details (tags `@rule:<id>` and its
 * operations' tags, for --grep; `rule` annotations, for the report) together
 * with one typed handle per rule, named after its id in camelCase:
 *
 *   const resume = declareRules('events.resume.no-loss', 'events.resume.order');
 *   test('should resume …', resume, async ({ events }) => {
 *     must(resume.eventsResumeNoLoss, ok, evidence);
 *   });
 *
 * The `must*` calls take the handle, so the id is written once: a misspelt
 * handle or a rule the check did not declare fails the typecheck. A check
 * that evaluates a rule it did not declare (through a handle of another
 * check, or a schema node) still throws SuiteDefect at run time (must.ts).
 */
import { operation, type OperationId } from '../../spec/operations.ts';
import { rule, type RuleId } from '../../spec/rules.ts';
import { rulesOf, type SchemaName } from '../../schemas/index.ts';
import { ANNOTATION } from '../verdicts/decide.ts';

/** A rule as a check holds it: made by declaring it. */
export interface RuleRef<Id extends RuleId = RuleId> {
  readonly id: Id;
}

type Dotted<S extends string> = S extends `${infer A}-${infer B}` ? `${A}.${Dotted<B>}` : S;
type Camel<S extends string> = S extends `${infer A}.${infer B}` ? `${A}${Capitalize<Camel<B>>}` : S;
/** A rule's handle name: its id in camelCase (events.resume.no-loss → eventsResumeNoLoss). */
export type RuleKey<Id extends string> = Camel<Dotted<Id>>;

/** The handles of the rules `Id`: what a shared helper asks of the check that calls it. */
export type Declared<Id extends RuleId> = { readonly [I in Id as RuleKey<I>]: RuleRef<I> };

/**
 * Rules declared together: every rule a shared helper may decide (`Named`
 * are those it evaluates by handle; the others come from schemas, whose
 * nodes name their rules themselves).
 */
export interface RuleGroup<Named extends RuleId = never> {
  readonly ids: readonly RuleId[];
  readonly named: readonly Named[];
}

type Declarable = RuleId | RuleGroup<RuleId>;
type NamedBy<D> = D extends RuleGroup<infer N> ? N : D extends RuleId ? D : never;

export type Declaration<Id extends RuleId> = Declared<Id> & {
  readonly tag: string[];
  readonly annotation: Array<{ type: string; description: string }>;
};

const keyOf = (id: string) =>
  id
    .split(/[.-]/)
    .map((p, i) => (i === 0 ? p : p.charAt(0).toUpperCase() + p.slice(1)))
    .join('');

/** Rules named by handle, and the rules a schema's nodes name. */
export function ruleGroup<const Named extends readonly RuleId[]>(
  named: Named,
  ...schemas: SchemaName[]
): RuleGroup<Named[number]> {
  return { named, ids: [...new Set([...named, ...schemas.flatMap((s) => rulesOf(s) as RuleId[])])] };
}

/** The rules whose nodes are in a schema: declared for `mustMatchSchema`, which finds them by the schema's name. */
export const schemaRules = (...schemas: SchemaName[]): RuleGroup => ruleGroup([], ...schemas);

/** Declares the rules a check decides: its details for `test()`, and a handle per rule. */
export function declareRules<const D extends readonly Declarable[]>(...declared: D): Declaration<NamedBy<D[number]>> {
  const ids = [...new Set(declared.flatMap((d) => (typeof d === 'string' ? [d] : d.ids)))];
  const named = [...new Set(declared.flatMap((d) => (typeof d === 'string' ? [d] : d.named)))];
  const ops = new Set<OperationId>(ids.flatMap((id) => rule(id).operations));
  const opTags = ops.size <= 2 ? [...ops].map((o) => operation(o).tag) : [];
  const handles: Record<string, RuleRef> = {};
  for (const id of named) {
    if (!rule(id)) throw new Error(`declareRules: no rule ${id}`);
    handles[keyOf(id)] = { id };
  }
  // The handles are not enumerable: Playwright reads only the details' tag and annotation.
  return Object.defineProperties(
    {
      tag: [...new Set([...opTags, ...ids.map((id) => `@rule:${id}`)])],
      annotation: ids.map((id) => ({ type: ANNOTATION.rule, description: id })),
    },
    Object.fromEntries(Object.entries(handles).map(([k, v]) => [k, { value: v, enumerable: false }])),
  ) as Declaration<NamedBy<D[number]>>;
}

/** The id of a rule given by handle or (in checks not yet declaring by handle) by id. */
export const idOf = (r: RuleRef | RuleId): RuleId => (typeof r === 'string' ? r : r.id);
