import { resolve } from 'node:path'
import { defineConfig } from 'vite'

// Library build: three ESM entry points (and the CLI); peers stay external. Declarations come from `tsc -p tsconfig.build.json`.
export default defineConfig({
  build: {
    target: 'es2022',
    minify: false,
    sourcemap: true,
    lib: {
      entry: {
        index: resolve(import.meta.dirname, 'src/index.ts'),
        core: resolve(import.meta.dirname, 'src/core/index.ts'),
        internal: resolve(import.meta.dirname, 'src/core/internal.ts'),
        cli: resolve(import.meta.dirname, 'src/cli/main.ts'),
      },
      formats: ['es'],
    },
    rollupOptions: {
      // Peers and dependencies are resolved by the user's bundler.
      external: [
        /^fflate($|\/)/,
        /^fast-png($|\/)/,
        /^react($|\/)/,
        /^react-dom($|\/)/,
        /^three($|\/)/,
        /^@react-three\/fiber($|\/)/,
        /^node:/,
      ],
    },
  },
})
