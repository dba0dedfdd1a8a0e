#!/usr/bin/env node
// The command line ships compiled with the library: `npm run build` writes dist/cli/main.js.
import('../dist/cli/main.js').then(
  ({ main }) => main(process.argv),
  (error) => {
    console.error(`react-three-md2: cannot load dist/cli/main.js (${error.message}); run "npm run build" first`)
    process.exitCode = 1
  },
)
