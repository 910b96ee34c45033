import { loadavg } from 'node:os'

/** The machine's load average over 1, 5 and 15 minutes, as every bench prints it beside its figures. */
export const loadAverage = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')
