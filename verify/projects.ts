/**
 * How verify/run.ts hands its projects to the one Playwright run that checks
 * them all (verify/playwright.config.ts): in the environment, one variable
 * per project, because a project's targetEnv holds its target's tokens
 * (never written to a file) and the config is loaded again in every worker.
 */
export interface VerifyProject {
  name: string;
  /** The checks of one rule (`grepForRule`); the whole suite when absent. */
  grep?: string;
  /** Projects whose checks must finish first (the second run of the baseline). */
  dependencies?: string[];
  /** The target's CONFORMANCE_* variables, tokens included (harness/fixtures/fixtures.ts overlays them). */
  targetEnv: Record<string, string>;
}

const COUNT = 'VERIFY_PROJECTS';

export function projectsToEnv(projects: readonly VerifyProject[]): Record<string, string> {
  return Object.fromEntries([
    [COUNT, String(projects.length)],
    ...projects.map((p, i) => [`${COUNT}_${i}`, JSON.stringify(p)]),
  ]);
}

export function projectsFromEnv(env: Record<string, string | undefined> = process.env): VerifyProject[] {
  return Array.from({ length: Number(env[COUNT] ?? 0) }, (_, i) => JSON.parse(env[`${COUNT}_${i}`]!) as VerifyProject);
}

/** The one project of a run whose workers check shared targets (harness/fixtures/targets.ts). */
export const SHARED_PROJECT = 'shared';
