/**
 * Writes the CPU blend kernels (src/core/animation/blendKernels.ts) from one template: every kernel is
 * the same loop over the output vertices with features switched on or off.
 *
 *   npm run generate:kernels            writes the file
 *   npm run generate:kernels -- --check fails if the checked-in file differs from what this writes
 *
 * A kernel variant is one entry in KERNELS below. Why specialised copies rather than one loop with flags:
 * V8 optimises best a loop that only ever sees one kind of call, so the paths that write less never pay
 * for what they skip. test/core/animation/blend-kernels.test.ts fails when the checked-in file differs
 * from what this writes.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { format, resolveConfig } from 'prettier'

/** A feature is written by every call (`true`), or only when its output is given (`'optional'`). */
type Presence = true | 'optional'

export interface KernelSpec {
  name: string
  /** Keyframes read per vertex: a blend of two, or a crossfade's four. */
  frames: 2 | 4
  /** Normals: the table's normals at each frame's index, weighted. */
  normals?: Presence
  /** Quake II light: a colour per vertex from a table, at the normal index of frame 1 (the frame blended towards). */
  light?: Presence
  /** A pose blended earlier, added with its own weight (a crossfade's outgoing pose, held). */
  held?: true
  /** The box of the positions written (min x, y, z then max), exactly as stored. */
  bounds?: Presence
  /** A power shell: the positions pushed out along frame 1's normal. */
  shell?: Presence
  /** A blob shadow: the positions moved along the shade vector by their height, flattened onto the floor. */
  shadow?: Presence
  doc: string
}

/** The generated file, from the repository root. */
export const KERNELS_PATH = 'src/core/animation/blendKernels.ts'

/** The kernels, one line each. The hand-written dispatch (blendVertices.ts, blendPoseInto.ts) chooses among them. */
export const KERNELS: KernelSpec[] = [
  { name: 'blendPair', frames: 2, doc: 'Two keyframes: positions.' },
  { name: 'blendPairNormals', frames: 2, normals: true, doc: 'Two keyframes: positions and normals.' },
  { name: 'blendPairLit', frames: 2, light: true, doc: 'Two keyframes: positions and Quake II light.' },
  { name: 'blendFour', frames: 4, normals: 'optional', doc: 'A crossfade of four keyframes: positions, and normals if given.' },
  { name: 'blendFourLit', frames: 4, light: true, doc: 'A crossfade of four keyframes: positions and Quake II light.' },
  { name: 'blendPairOverHeld', frames: 2, held: true, doc: 'Two keyframes and a held pose: positions.' },
  { name: 'blendPairNormalsOverHeld', frames: 2, held: true, normals: true, doc: 'Two keyframes and a held pose: positions, normals.' },
  {
    name: 'blendPairNormalsOverHeldBounded',
    frames: 2,
    held: true,
    normals: true,
    bounds: true,
    doc: 'Two keyframes and a held pose: positions, normals and their box.',
  },
  {
    name: 'blendPairInto',
    frames: 2,
    normals: 'optional',
    light: 'optional',
    bounds: 'optional',
    shell: 'optional',
    shadow: 'optional',
    doc: 'Two keyframes into every output given.',
  },
  {
    name: 'blendFourInto',
    frames: 4,
    normals: 'optional',
    light: 'optional',
    bounds: 'optional',
    shell: 'optional',
    shadow: 'optional',
    doc: 'A crossfade of four keyframes into every output given.',
  },
]

/**
 * Where the kernels read their coefficients, in a Float64Array (a fractional number passed by value is
 * boxed by V8): per frame f, its Quake x, y, z scales times its weight at 3f, then these slots.
 */
const SLOTS = {
  TRANSLATE: [12, "The frames' translates (Quake x, y, z), weighted and summed."],
  WEIGHT: [15, "Each frame's weight (for the normals)."],
  HELD_WEIGHT: [19, "The held pose's weight."],
  SHELL_OFFSET: [20, 'How far a power shell stands out along the normals.'],
  SHADE: [21, "A blob shadow's normalised shade vector (Quake x, y)."],
  SHADOW_HEIGHT: [23, "The model origin's height above the blob shadow's floor."],
  COEFFICIENT_COUNT: [24, 'How many slots in all.'],
} as const
const slot = (name: keyof typeof SLOTS) => SLOTS[name][0]

const range = (n: number) => Array.from({ length: n }, (_, i) => i)

function parameters(spec: KernelSpec): string[] {
  const maybe = (presence: Presence | undefined) => (presence === 'optional' ? ' | undefined' : '')
  const list = [
    'words: Uint32Array',
    'offsets: Int32Array',
    'k: Float64Array',
    'xyzIndex: Uint16Array | Uint32Array',
    'positions: Float32Array',
  ]
  if (spec.normals) list.push(`normals: Float32Array${maybe(spec.normals)}`)
  if (spec.light) list.push(`colors: Float32Array${maybe(spec.light)}`, `lightTable: Float32Array${maybe(spec.light)}`)
  if (spec.held) list.push('held: Float32Array')
  if (spec.held && spec.normals) list.push('heldNormals: Float32Array')
  if (spec.bounds) list.push(`bounds: Float64Array${maybe(spec.bounds)}`)
  if (spec.shell) list.push(`shell: Float32Array${maybe(spec.shell)}`)
  if (spec.shadow) list.push(`shadow: Float32Array${maybe(spec.shadow)}`)
  return list
}

/** `body` written when the feature is on, inside a test of its output when it is optional. */
function when(presence: Presence | undefined, test: string, body: string[]): string[] {
  if (!presence) return []
  return presence === 'optional' ? [`if (${test}) {`, ...body, '}'] : body
}

/** One kernel: the template. Y-up (X, Y, Z) = Quake (y, z, x): byte 1, byte 2, byte 0 of each vertex word. */
function kernel(spec: KernelSpec): string {
  const frames = range(spec.frames)
  const sum = (term: (f: number) => string) => frames.map(term).join(' + ')
  // Positions stay in locals when something else is made of them (their box, the shell, the shadow).
  const keep = Boolean(spec.bounds || spec.shell || spec.shadow)
  const at = (c: number) => (c ? `o + ${c}` : 'o')
  const plus = (c: number) => (c ? ` + ${c}` : '')
  const heldTerm = (c: number) => (spec.held ? ` + held[${at(c)}]! * wh` : '')
  const axes = [
    { local: 'px', shift: '>>> 8) & 255', scale: 'y', constant: 'cy' },
    { local: 'py', shift: '>>> 16) & 255', scale: 'z', constant: 'cz' },
    { local: 'pz', shift: '', scale: 'x', constant: 'cx' },
  ]
  const byte = (f: number, shift: string) => (shift ? `((q${f} ${shift})` : `(q${f} & 255)`)
  const position = (c: number) => {
    const { shift, scale, constant } = axes[c]!
    return `${sum((f) => `${byte(f, shift)} * ${scale}${f}`)} + ${constant}${heldTerm(c)}`
  }
  const lightIndex = spec.light || spec.shell
  const lines: string[] = []
  lines.push(`/** ${spec.doc} */`)
  lines.push(`export function ${spec.name}(${parameters(spec).join(', ')}): void {`)
  lines.push(`const ${frames.map((f) => `o${f} = offsets[${f}]!`).join(', ')}`)
  lines.push(`const ${frames.map((f) => `x${f} = k[${f * 3}]!, y${f} = k[${f * 3 + 1}]!, z${f} = k[${f * 3 + 2}]!`).join(', ')}`)
  lines.push(`const cx = k[${slot('TRANSLATE')}]!, cy = k[${slot('TRANSLATE') + 1}]!, cz = k[${slot('TRANSLATE') + 2}]!`)
  if (spec.normals) lines.push(`const ${frames.map((f) => `w${f} = k[${slot('WEIGHT') + f}]!`).join(', ')}`)
  if (spec.held) lines.push(`const wh = k[${slot('HELD_WEIGHT')}]!`)
  if (spec.shell) lines.push(`const push = k[${slot('SHELL_OFFSET')}]!`)
  if (spec.shadow) lines.push(`const sx = k[${slot('SHADE')}]!, sy = k[${slot('SHADE') + 1}]!, height = k[${slot('SHADOW_HEIGHT')}]!`)
  if (spec.bounds) lines.push('let lx = Infinity, ly = Infinity, lz = Infinity, hx = -Infinity, hy = -Infinity, hz = -Infinity')
  lines.push('const count = xyzIndex.length')
  lines.push('for (let i = 0, o = 0; i < count; i++, o += 3) {')
  lines.push('const v = xyzIndex[i]!')
  lines.push(`const ${frames.map((f) => `q${f} = words[o${f} + v]!`).join(', ')}`)
  for (let c = 0; c < 3; c++) {
    if (keep) lines.push(`const ${axes[c]!.local} = ${position(c)}`)
    lines.push(`positions[${at(c)}] = ${keep ? axes[c]!.local : position(c)}`)
  }
  if (spec.bounds) {
    for (const [local, low, high] of [
      ['px', 'lx', 'hx'],
      ['py', 'ly', 'hy'],
      ['pz', 'lz', 'hz'],
    ]) {
      lines.push(`${low} = Math.min(${low}, ${local})`, `${high} = Math.max(${high}, ${local})`)
    }
  }
  if (spec.normals) {
    const normals = (c: number) =>
      `normals[${at(c)}] = ${sum((f) => `normalTable[n${f}${plus(c)}]! * w${f}`)}${spec.held ? ` + heldNormals[${at(c)}]! * wh` : ''}`
    lines.push(
      ...when(spec.normals, 'normals !== undefined', [
        `const ${frames.map((f) => `n${f} = (q${f} >>> 24) * 3`).join(', ')}`,
        ...range(3).map(normals),
      ]),
    )
  }
  if (lightIndex) lines.push('const to = (q1 >>> 24) * 3')
  lines.push(
    ...when(
      spec.light,
      'colors !== undefined && lightTable !== undefined',
      range(3).map((c) => `colors[${at(c)}] = lightTable[to${plus(c)}]!`),
    ),
  )
  lines.push(
    ...when(
      spec.shell,
      'shell !== undefined',
      range(3).map((c) => `shell[${at(c)}] = ${axes[c]!.local} + normalTable[to${plus(c)}]! * push`),
    ),
  )
  lines.push(
    ...when(spec.shadow, 'shadow !== undefined', [
      '// Quake (x, y, z) = Y-up (Z, X, Y): x and y move by the shade vector × (z + height), z = floor + 1.',
      'const rise = py + height',
      'shadow[o] = px - sy * rise',
      'shadow[o + 1] = 1 - height',
      'shadow[o + 2] = pz - sx * rise',
    ]),
  )
  lines.push('}')
  if (spec.bounds) {
    // Found on the unrounded values: rounding to float never changes which is least or greatest.
    lines.push(
      ...when(
        spec.bounds,
        'bounds !== undefined',
        ['lx', 'ly', 'lz', 'hx', 'hy', 'hz'].map((local, i) => `bounds[${i}] = Math.fround(${local})`),
      ),
    )
  }
  lines.push('}')
  return lines.join('\n')
}

function slotsText(): string[] {
  return [
    "/** Where the kernels read each coefficient in `k` past the frames' scales (3 per frame: Quake x, y, z times the frame's weight). */",
    'export const SLOT = {',
    ...Object.entries(SLOTS).flatMap(([name, [value, about]]) => [`/** ${about} */`, `${name}: ${value},`]),
    '} as const',
    '',
  ]
}

const NORMAL_TABLE = [
  "import { ANORMS_256_YUP } from './yUpAxes.js'",
  '',
  '/**',
  ' * The normal table, Y-up, held in a constant of this module: the optimizing compiler then knows its',
  " * length (no bounds checks on the 0–255 indices) and keeps it out of the loops' registers.",
  ' */',
  'const normalTable = ANORMS_256_YUP',
  '',
]

function fileText(): string {
  return [
    '// GENERATED by scripts/generate-kernels.ts from its one template: do not edit.',
    '// Change the template or its list of kernels and run `npm run generate:kernels`.',
    "// The body's kernels (dispatched by blendVertices.ts) and the `…Into` ones that also write a power shell or a",
    '// blob shadow (dispatched by blendPoseInto.ts alone, so an app that draws neither leaves them out of its bundle).',
    '//',
    '// Every kernel: for each output vertex i (MD2 vertex xyzIndex[i]) reads one 32-bit word per keyframe',
    '// (x, y, z, normal index) at words[offsets[f] + v] and writes 3 floats to each output, Y-up, with the',
    "// coefficients in k (each frame's scales times its weight at 3f, then the slots of SLOT).",
    '',
    ...NORMAL_TABLE,
    ...slotsText(),
    ...KERNELS.map((spec) => kernel(spec) + '\n'),
  ].join('\n')
}

export const ROOT = resolve(import.meta.dirname, '..')

/** The generated file's text, formatted as Prettier would. */
export async function generateKernels(): Promise<string> {
  const filepath = join(ROOT, KERNELS_PATH)
  const options = (await resolveConfig(filepath)) ?? {}
  return format(fileText(), { ...options, filepath })
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const target = join(ROOT, KERNELS_PATH)
  const text = await generateKernels()
  let current: string | undefined
  try {
    current = readFileSync(target, 'utf8')
  } catch {
    current = undefined
  }
  if (current !== text) {
    if (process.argv.includes('--check')) {
      console.error(`out of date: ${KERNELS_PATH}; run npm run generate:kernels`)
      process.exit(1)
    }
    writeFileSync(target, text)
    console.log(`wrote ${KERNELS_PATH}`)
  }
}
