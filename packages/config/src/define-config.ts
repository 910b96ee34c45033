import { z } from 'zod'

/**
 * A fragment owns a few environment variables, optional rules across them, and how they become a
 * typed section of the process configuration. Processes pick the fragments they need.
 */
export interface EnvFragment<Shape extends z.ZodRawShape, Section> {
  shape: Shape
  check?: (env: z.output<z.ZodObject<Shape>>, report: (variable: string, message: string) => void) => void
  read: (env: z.output<z.ZodObject<Shape>>) => Section
}

export function defineFragment<Shape extends z.ZodRawShape, Section>(
  fragment: EnvFragment<Shape, Section>,
): EnvFragment<Shape, Section> {
  return fragment
}

// biome-ignore lint/suspicious/noExplicitAny: fragments of any shape are composed below
type AnyFragment = EnvFragment<any, unknown>
type Sections<F extends Record<string, AnyFragment>> = {
  // biome-ignore lint/suspicious/noExplicitAny: only the return type matters here
  [K in keyof F]: F[K] extends { read: (env: any) => infer S } ? S : never
}

export type Environment = Record<string, string | undefined>

export class ConfigError extends Error {
  constructor(
    readonly processName: string,
    readonly problems: { variable: string; message: string }[],
  ) {
    super(
      `Invalid configuration for ${processName}:\n${problems.map((p) => `  ${p.variable}: ${p.message}`).join('\n')}`,
    )
    this.name = 'ConfigError'
  }
}

export interface ProcessConfig<F extends Record<string, AnyFragment>> {
  processName: string
  variables: string[]
  /** Each variable's value when it is not set, as it would be written in a `.env` file. */
  defaults(): Record<string, string>
  parse(env: Environment): Sections<F>
}

/** A parsed default written back as an environment value (lists comma-separated, none as empty). */
const asEnvValue = (value: unknown): string =>
  value === undefined || value === null ? '' : Array.isArray(value) ? value.join(',') : String(value)

export function defineProcessConfig<F extends Record<string, AnyFragment>>(
  processName: string,
  fragments: F,
): ProcessConfig<F> {
  const shape: z.ZodRawShape = {}
  for (const fragment of Object.values(fragments)) Object.assign(shape, fragment.shape)
  const schema = z.object(shape)

  return {
    processName,
    variables: Object.keys(shape).sort(),
    defaults() {
      return Object.fromEntries(
        Object.keys(shape)
          .sort()
          .map((name) => {
            const field = shape[name]
            const parsed = field ? z.safeParse(field, undefined) : undefined
            return [name, parsed?.success ? asEnvValue(parsed.data) : '']
          }),
      )
    },
    parse(env) {
      const parsed = schema.safeParse(env)
      if (!parsed.success) {
        throw new ConfigError(
          processName,
          parsed.error.issues.map((issue) => ({
            variable: String(issue.path[0] ?? '?'),
            message: issue.message,
          })),
        )
      }
      const problems: { variable: string; message: string }[] = []
      for (const fragment of Object.values(fragments)) {
        fragment.check?.(parsed.data, (variable, message) => problems.push({ variable, message }))
      }
      if (problems.length > 0) throw new ConfigError(processName, problems)
      const sections: Record<string, unknown> = {}
      for (const [key, fragment] of Object.entries(fragments)) sections[key] = fragment.read(parsed.data)
      return sections as Sections<F>
    },
  }
}
