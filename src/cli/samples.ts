import { EXIT_FAILED, EXIT_OK, UsageError, describeFileError, type CliIO, type Parsed } from './common.js'
import { checkTarget, writeFailure, writeFiles, type OutputFile } from './writeOutputs.js'

/** A sample the package ships: the files of `from` (a folder of the repository's assets/), written to DIR/`name`/. */
export interface Sample {
  name: string
  /** What it is, for the usage text. */
  summary: string
  /** Its folder under assets/ in the repository (dist/samples/`name`/ in the package). */
  from: string
  files: readonly string[]
  /** Written beside the files as CREDITS.txt: who made them and on what terms. */
  credits: string
}

export const SAMPLES: readonly Sample[] = [
  {
    name: 'ogro',
    summary: 'a Quake II player: body, skins igdosh and khorne, weapon, railgun',
    from: 'quake2/ogro',
    files: ['tris.MD2', 'igdosh.pcx', 'khorne.pcx', 'weapon.md2', 'weapon.pcx', 'w_railgun.MD2', 'g_rail.pcx', 'Ogro.txt'],
    credits: `Ogro, a Quake II player model (1998), as its authors released it; the files are unchanged.

Model and animations: Magarnigal. Skins: Ogro_Fix (igdosh, khorne and the weapon skins).
weapon.md2 and w_railgun.MD2 are id Software's standard player weapons ("VWep") with the Ogro's
skins (weapon.pcx, g_rail.pcx). Ogro.txt is the authors' own readme.

Terms: the readme gives no licence beyond id Software's trademark notice ("QUAKE(R) and QUAKE II(R)
are registered trademarks of id Software, Inc."). The Ogro has been redistributed freely since 1998,
among others in three.js's MIT-licensed examples (examples/models/md2/ogro). It ships with
react-three-md2 as a sample on those same terms: it is not covered by react-three-md2's MIT licence.
For a commercial product, ask its authors or use a model whose licence says so.
`,
  },
  {
    name: 'bloodspider',
    summary: "UFO: Alien Invasion's blood spider (CC BY-SA 3.0): body, skin, animation table, tags",
    from: 'ufoai/bloodspider',
    files: ['bloodspider.md2', 'bloodspider.jpg', 'bloodspider.anm', 'bloodspider.tag'],
    credits: `Blood spider, from UFO: Alien Invasion (https://ufoai.org, https://github.com/ufoaiorg/ufoai,
base/models/aliens/bloodspider/); the files are unchanged.

Model and all animations (bloodspider.md2, .anm, .tag): Werner Hoehrer (hoehrer); model fixups:
Ryan Span (Winter). Skin (bloodspider.jpg): Jake Gustafson (ProtoArmor).

Licence: Creative Commons Attribution-ShareAlike 3.0 Unported (CC BY-SA 3.0),
https://creativecommons.org/licenses/by-sa/3.0/, as UFO:AI's LICENSES file lists for each of these
files. Give this credit where you use them; what you make from them is shared under the same licence.
The model names its skin ".bloodspider" (the extension left open): give skin="bloodspider.jpg", or
files={['bloodspider.md2', 'bloodspider.jpg']}, so no other extension is asked for.
`,
  },
]

const CREDITS_FILE = 'CREDITS.txt'

export const SAMPLES_USAGE = `Usage: react-three-md2 samples DIR [--only NAME] [--force]

  Writes the sample models shipped in this package, each in a folder of its own under DIR, with a
  ${CREDITS_FILE} naming its authors and terms:
${SAMPLES.map((sample) => `    ${`${sample.name}/`.padEnd(14)}${sample.summary}\n${''.padEnd(18)}${sample.files.join(', ')}\n`).join('')}
  --only NAME   that sample alone (${SAMPLES.map((sample) => sample.name).join(' or ')})
  --force       overwrite files already there (without it, nothing is written when one is)

  All the files are written or none: each goes to a temporary file renamed into place once every one
  is written. A link under DIR where a file or folder goes is refused (UNSAFE_PATH), never written
  through.

  npx react-three-md2 samples public/players   # a Vite app: <MD2Model url="/players/ogro/tris.MD2" />

Exit status: 0 done, 1 a file could not be written or was already there, 2 usage.
`

/** `url` (relative to this module) as a file path: POSIX, or Windows without the URL's leading slash. */
function besideThisModule(url: string): string {
  const path = decodeURIComponent(new URL(url, import.meta.url).pathname)
  return /^\/[A-Za-z]:\//.test(path) ? path.slice(1) : path
}

/**
 * Where a sample's files are: dist/samples/NAME/ in the package (the build copies them there from assets/,
 * so the repository keeps one copy), assets/FROM/ when the command runs from the sources.
 */
function sourceFolder(sample: Sample, io: CliIO): string | undefined {
  return [`../samples/${sample.name}/`, `../../assets/${sample.from}/`].map(besideThisModule).find((dir) => io.isDirectory(dir))
}

/** `react-three-md2 samples DIR [--only NAME] [--force]`. */
export function samples(parsed: Parsed, io: CliIO): number {
  if (parsed.help) {
    io.stdout(SAMPLES_USAGE)
    return EXIT_OK
  }
  const [dir, ...extra] = parsed.files
  if (dir === undefined) throw new UsageError('samples needs a DIR to write to (public/players in a Vite app)')
  if (extra.length > 0) throw new UsageError(`samples takes one DIR, got ${parsed.files.length}`)
  const chosen = parsed.only === undefined ? SAMPLES : SAMPLES.filter((sample) => sample.name === parsed.only)
  if (chosen.length === 0)
    throw new UsageError(`--only ${parsed.only}: no such sample (${SAMPLES.map((sample) => sample.name).join(', ')})`)
  if (io.exists(dir) && !io.isDirectory(dir)) {
    io.stderr(`${dir}: is a file, not a folder; nothing written\n`)
    return EXIT_FAILED
  }

  // Everything is read and every target checked before the first file is written.
  const base = dir.replace(/[/\\]+$/, '')
  const writes: OutputFile[] = []
  for (const sample of chosen) {
    const folder = `${base}/${sample.name}`
    if (io.exists(folder) && !io.isDirectory(folder)) {
      io.stderr(`${folder}: is a file, not a folder; nothing written\n`)
      return EXIT_FAILED
    }
    const from = sourceFolder(sample, io)
    if (from === undefined) {
      io.stderr(
        `react-three-md2: the files of the sample ${sample.name} are missing (dist/samples/${sample.name}/); reinstall the package\n`,
      )
      return EXIT_FAILED
    }
    for (const file of sample.files) {
      const source = from + file
      try {
        writes.push({ path: `${folder}/${file}`, data: io.readFile(source) })
      } catch (error) {
        io.stderr(`${source}: cannot read: ${describeFileError(error)}; the package is incomplete, reinstall it\n`)
        return EXIT_FAILED
      }
    }
    writes.push({ path: `${folder}/${CREDITS_FILE}`, data: new TextEncoder().encode(sample.credits) })
  }
  // A link where a file or folder goes is refused before the question of files already there.
  try {
    for (const write of writes) checkTarget(write.path, io, { root: base })
  } catch (error) {
    io.stderr(`${writeFailure(error)}; nothing written\n`)
    return EXIT_FAILED
  }
  const there = writes.filter((write) => io.exists(write.path))
  if (there.length > 0 && !parsed.force) {
    for (const write of there) io.stderr(`${write.path}: exists\n`)
    io.stderr(`nothing written: ${there.length} of the ${writes.length} files are already there (--force overwrites them)\n`)
    return EXIT_FAILED
  }

  try {
    writeFiles(writes, io, { root: base })
  } catch (error) {
    io.stderr(`${writeFailure(error)}\n`)
    return EXIT_FAILED
  }
  let bytes = 0
  for (const write of writes) {
    bytes += write.data.byteLength
    io.stdout(`wrote ${write.path} (${write.data.byteLength} bytes)\n`)
  }
  io.stdout(
    `wrote ${writes.length} files, ${bytes} bytes: ${chosen.map((sample) => `${base}/${sample.name}/`).join(', ')}` +
      `${there.length > 0 ? ` (${there.length} overwritten)` : ''}; read each ${CREDITS_FILE} before you publish them\n`,
  )
  return EXIT_OK
}
