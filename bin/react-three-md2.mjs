#!/usr/bin/env node
// The command line ships compiled with the library: `npm run build` writes dist/cli.js.
import('../dist/cli.js').then(
  ({ main }) => main(process.argv),
  (error) => {
    console.error(`react-three-md2: cannot load dist/cli.js (${error.message}); run "npm run build" first`)
    process.exitCode = 1
  },
)
