import { BaseSequencer, type TestSpecification } from 'vitest/node'

/** The order projects start in: the long tail first, so it runs beside the rest, unit files last to fill the gaps. */
export const PROJECT_ORDER = ['long', 'integration', 'unit']

/** Orders files by project as PROJECT_ORDER says, keeping vitest's own order within each (duration of the last run, then size). */
export function byProject<T>(files: T[], projectOf: (file: T) => string): T[] {
  const rank = (file: T) => {
    const index = PROJECT_ORDER.indexOf(projectOf(file))
    return index === -1 ? PROJECT_ORDER.length : index
  }
  // Array.prototype.sort is stable: ties keep vitest's order.
  return [...files].sort((a, b) => rank(a) - rank(b))
}

/**
 * vitest's sequencer with the long tail first: a file of a minute started last ends the run alone
 * on one core while the other idles; started first, it runs while the short ones fill the other.
 */
export class LongTailFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return byProject(await super.sort(files), (file) => file.project.name)
  }
}
