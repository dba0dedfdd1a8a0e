#!/usr/bin/env node
/**
 * Drops the checksum npm records for the packed library (`file:vendor/react-three-md2.tgz`) from the
 * package-lock.json of the example it is run from. The tarball is rebuilt from the library's source
 * before every install, so its checksum changes with every library change; npm ci does not check a
 * `file:` tarball against it, but with it recorded npm ci takes the package from its cache by that
 * checksum, which would install an older build of the library than the tarball. Run after
 * `npm install` changes the lockfile (`npm run lock` in an example).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

// npm runs a package's scripts in its folder: the example's.
const path = join(process.cwd(), 'package-lock.json')
const lock = JSON.parse(readFileSync(path, 'utf8'))
const entry = lock.packages?.['node_modules/react-three-md2']
if (!entry) throw new Error(`${path} has no node_modules/react-three-md2: run npm install first`)
delete entry.integrity
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`)
console.log('package-lock.json: react-three-md2 resolves to the tarball, with no checksum pinned')
