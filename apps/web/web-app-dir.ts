import { fileURLToPath } from 'node:url'

/** Where `vite build` writes the web app; the gateway serves it from here. */
export const webAppDir = fileURLToPath(new URL('./dist', import.meta.url))
