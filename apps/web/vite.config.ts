import { defineConfig } from 'vite'

// Preact through esbuild's automatic JSX runtime: no Babel, no framework plugin needed.
export default defineConfig({
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022' },
  server: {
    // `pnpm --filter @rag/web dev` against a gateway on its default port.
    proxy: Object.fromEntries(
      ['/documents', '/search', '/ask', '/session', '/healthz', '/reindex'].map((path) => [
        path,
        'http://127.0.0.1:3000',
      ]),
    ),
  },
})
