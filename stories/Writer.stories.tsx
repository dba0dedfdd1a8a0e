import type { Meta, StoryObj } from '@storybook/react-vite'
import { splitStory } from './support/story-kinds'
import { useEffect, useMemo, useState, type CSSProperties } from 'react'
import { BufferGeometry, Float32BufferAttribute, type DataTexture } from 'three'
import { expect, waitFor } from 'storybook/test'
import { MD2Model, createSkinTexture, decodeFrame, md2FromGeometry, parseMD2, writeMD2, type MD2ModelData } from '../src/index'
import { useLiveArgs, setStoryArgs } from './support/live-args'
import { findStage } from './support/pixels'
import { Overlay } from './support/Stage'

/**
 * Writing MD2 in the browser: a twisting ribbon torus is computed frame by frame in JavaScript (a
 * `BufferGeometry` with one absolute morph target per frame), turned into an MD2 model by
 * `md2FromGeometry` (welded, st in texels, frames quantized and GL commands built as qdata does),
 * written by `writeMD2`, read back by `parseMD2` and played by `<MD2Model model={parsed}>`. Nothing
 * on screen comes from the float geometry: what plays is the file. "Download .md2" saves those
 * bytes (a Blob URL); the readout says what is in them and how far quantization moved the vertices.
 */

export interface WriterArgs {
  /** Keyframes written (one morph target each). */
  frames: number
  /** How far the ribbon's cross-section turns at the crest of the twist wave, in degrees. */
  twist: number
  /** Playback keyframes per second. */
  fps: number
}

// ---------------------------------------------------------------------------------------------
// The geometry: a torus with a flat elliptical cross-section (a ribbon), standing facing the camera.

/** Segments around the ring and around the cross-section. */
const RING_SEGMENTS = 32
const SECTION_SEGMENTS = 16
/** The skin: 8 texels per ring segment, 4 per cross-section segment, so every uv is a whole texel. */
const SKIN_WIDTH = RING_SEGMENTS * 8
const SKIN_HEIGHT = SECTION_SEGMENTS * 4
/** Ring radius and the cross-section's half-width (in the ring's plane when untwisted) and half-thickness. */
const RING_RADIUS = 22
const HALF_WIDTH = 9
const HALF_THICKNESS = 2.5
const FRAME_NAME = 'twist'
const FILE_NAME = 'twister.md2'

/**
 * The positions of every vertex in one frame, three.js coordinates (Y up, ring in the XY plane).
 * Ring angle u, section angle w; the section turns by α = twist · sin(2u − 2π f / frames): two
 * twist waves running round the ring, continuous across the seam and looping in time.
 */
function framePositions(frame: number, frames: number, twistDegrees: number): Float32Array {
  const out = new Float32Array((RING_SEGMENTS + 1) * (SECTION_SEGMENTS + 1) * 3)
  const twist = (twistDegrees * Math.PI) / 180
  const phase = (2 * Math.PI * frame) / frames
  let o = 0
  for (let i = 0; i <= RING_SEGMENTS; i++) {
    // The seam's last ring repeats the first exactly (its own uvs), so the vertices there weld.
    const u = (2 * Math.PI * (i % RING_SEGMENTS)) / RING_SEGMENTS
    const alpha = twist * Math.sin(2 * u - phase)
    const cosU = Math.cos(u)
    const sinU = Math.sin(u)
    for (let j = 0; j <= SECTION_SEGMENTS; j++) {
      const w = (2 * Math.PI * (j % SECTION_SEGMENTS)) / SECTION_SEGMENTS
      // The section's point before and after turning by alpha: radial (outward in the ring plane) and out of the plane.
      const r0 = HALF_WIDTH * Math.cos(w)
      const z0 = HALF_THICKNESS * Math.sin(w)
      const radial = r0 * Math.cos(alpha) - z0 * Math.sin(alpha)
      const normal = r0 * Math.sin(alpha) + z0 * Math.cos(alpha)
      out[o++] = (RING_RADIUS + radial) * cosU
      out[o++] = (RING_RADIUS + radial) * sinU
      out[o++] = normal
    }
  }
  return out
}

/** Grid index and uvs; triangles counter-clockwise seen from outside (three.js front faces). */
function ribbonGeometry(frames: number, twist: number): BufferGeometry {
  const columns = SECTION_SEGMENTS + 1
  const uvs: number[] = []
  for (let i = 0; i <= RING_SEGMENTS; i++) {
    for (let j = 0; j <= SECTION_SEGMENTS; j++) uvs.push(i / RING_SEGMENTS, 1 - j / SECTION_SEGMENTS)
  }
  const index: number[] = []
  for (let i = 0; i < RING_SEGMENTS; i++) {
    for (let j = 0; j < SECTION_SEGMENTS; j++) {
      const a = i * columns + j
      const b = (i + 1) * columns + j
      index.push(a, b, a + 1, b, b + 1, a + 1)
    }
  }
  const targets = Array.from({ length: frames }, (_, f) => {
    const target = new Float32BufferAttribute(framePositions(f, frames, twist), 3)
    target.name = `${FRAME_NAME}${String(f).padStart(3, '0')}`
    return target
  })
  const geometry = new BufferGeometry()
  geometry.setAttribute('position', targets[0]!.clone())
  geometry.setAttribute('uv', new Float32BufferAttribute(uvs, 2))
  geometry.setIndex(index)
  geometry.morphAttributes.position = targets
  return geometry
}

/** A skin drawn in code (RGBA, first row at the top): coloured bands round the ring, a light edge stripe. */
function ribbonSkin(): DataTexture {
  const data = new Uint8Array(SKIN_WIDTH * SKIN_HEIGHT * 4)
  const bands: [number, number, number][] = [
    [235, 94, 40],
    [250, 204, 21],
    [52, 199, 89],
    [56, 132, 244],
  ]
  for (let y = 0; y < SKIN_HEIGHT; y++) {
    for (let x = 0; x < SKIN_WIDTH; x++) {
      const band = bands[Math.floor(x / (SKIN_WIDTH / 16)) % bands.length]!
      // Rows near the top and bottom of the skin wrap the ribbon's outer rim (w = 0): paler there.
      const rim = y < SKIN_HEIGHT / 8 || y >= (SKIN_HEIGHT * 7) / 8
      const back = y >= (SKIN_HEIGHT * 3) / 8 && y < (SKIN_HEIGHT * 5) / 8
      const i = (y * SKIN_WIDTH + x) * 4
      for (let c = 0; c < 3; c++) data[i + c] = rim ? 240 : back ? Math.round(band[c]! * 0.45) : band[c]!
      data[i + 3] = 255
    }
  }
  return createSkinTexture({ width: SKIN_WIDTH, height: SKIN_HEIGHT, data }, 'ribbon skin')
}

// ---------------------------------------------------------------------------------------------
// Build → write → parse, and what the readout shows

interface Written {
  bytes: Uint8Array
  parsed: MD2ModelData
  /** Largest |decoded − computed| over every vertex, frame and axis, in model units. */
  maxError: number
  /** The most quantization may move a vertex: half a step (scale / 2) of the coarsest frame axis. */
  halfStep: number
}

function build(frames: number, twist: number): Written {
  const geometry = ribbonGeometry(frames, twist)
  const model = md2FromGeometry(geometry, { skinWidth: SKIN_WIDTH, skinHeight: SKIN_HEIGHT, name: FILE_NAME })
  const bytes = writeMD2(model)
  const parsed = parseMD2(bytes, { name: FILE_NAME })

  // Which MD2 vertex each three.js vertex became: md2FromGeometry keeps the triangle order and
  // turns three's corners (a, b, c) into MD2's (a, c, b).
  const index = geometry.getIndex()!
  const toMD2 = new Int32Array(geometry.getAttribute('position').count).fill(-1)
  for (let t = 0; t < index.count / 3; t++) {
    const corners = [index.getX(t * 3), index.getX(t * 3 + 2), index.getX(t * 3 + 1)]
    corners.forEach((vertex, k) => (toMD2[vertex] = parsed.triangles[t * 6 + k]!))
  }
  let maxError = 0
  let halfStep = 0
  const targets = geometry.morphAttributes.position!
  parsed.frames.forEach((frame, f) => {
    const decoded = decodeFrame(parsed, f)
    const source = targets[f]!
    for (let v = 0; v < toMD2.length; v++) {
      const m = toMD2[v]!
      if (m < 0) continue
      // MD2 (x, y, z) = three (Z, X, Y).
      maxError = Math.max(
        maxError,
        Math.abs(decoded[m * 3 + 1]! - source.getX(v)),
        Math.abs(decoded[m * 3 + 2]! - source.getY(v)),
        Math.abs(decoded[m * 3]! - source.getZ(v)),
      )
    }
    halfStep = Math.max(halfStep, ...frame.scale.map((s) => s / 2))
  })
  geometry.dispose()
  return { bytes, parsed, maxError, halfStep }
}

/** A Blob URL for the bytes, revoked when they change or the story unmounts. */
function useBlobUrl(bytes: Uint8Array): string | undefined {
  const [url, setUrl] = useState<string>()
  useEffect(() => {
    const next = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/octet-stream' }))
    setUrl(next)
    return () => {
      URL.revokeObjectURL(next)
      setUrl(undefined)
    }
  }, [bytes])
  return url
}

const BUTTON: CSSProperties = {
  pointerEvents: 'auto',
  padding: 0,
  maxWidth: 'none',
  whiteSpace: 'nowrap',
  background: '#1f6feb',
  border: '1px solid #58a6ff',
}
const LINK: CSSProperties = { display: 'block', padding: '6px 12px', color: '#ffffff', textDecoration: 'none', fontWeight: 600 }

function WriterScene(props: WriterArgs) {
  const { frames, twist, fps } = useLiveArgs(props)
  const written = useMemo(() => build(frames, twist), [frames, twist])
  const skin = useMemo(() => ribbonSkin(), [])
  useEffect(() => () => skin.dispose(), [skin])
  const href = useBlobUrl(written.bytes)
  const { parsed, bytes, maxError, halfStep } = written
  const { header } = parsed
  const strips = parsed.glCommands.filter((command) => command.mode === 'strip').length

  const readout = useMemo(
    () =>
      [
        `${FILE_NAME}: ${bytes.length.toLocaleString('en-US')} bytes`,
        `${header.numFrames} frames, ${header.numVertices} vertices, ${header.numTris} triangles, ${header.numST} st`,
        `GL commands: ${parsed.glCommands.length} (${strips} strips, ${parsed.glCommands.length - strips} fans), ${header.numGlCmds} words`,
        `max quantization error: ${maxError.toFixed(4)} units (half a step: ${halfStep.toFixed(4)})`,
      ].join('\n'),
    [bytes, header, parsed, strips, maxError, halfStep],
  )
  const download = useMemo(
    () =>
      href && (
        <a href={href} download={FILE_NAME} style={LINK}>
          Download .md2
        </a>
      ),
    [href],
  )

  return (
    <>
      <Overlay role="status">{readout}</Overlay>
      {download && (
        <Overlay at={{ x: 0.86, y: 0.06 }} style={BUTTON}>
          {download}
        </Overlay>
      )}
      <MD2Model model={parsed} skin={skin} fps={fps} />
    </>
  )
}

const meta = {
  title: 'Writer',
  component: WriterScene,
  args: { frames: 16, twist: 90, fps: 12 },
  argTypes: {
    frames: { control: { type: 'range', min: 2, max: 60, step: 1 }, description: 'Keyframes computed and written (one morph target each)' },
    twist: {
      control: { type: 'range', min: 0, max: 180, step: 5 },
      description: "How far the ribbon's cross-section turns at the crest of the wave (degrees)",
    },
    fps: { control: { type: 'range', min: 1, max: 60, step: 1 }, description: 'Playback keyframes per second' },
  },
  parameters: { stage: { camera: [0, 10, 95], target: [0, 0, 0] } },
  render: (args) => <WriterScene {...args} />,
} satisfies Meta<typeof WriterScene>

export default meta
type Story = StoryObj<typeof meta>

/** The download link's current Blob URL (a new one each time the model is rebuilt). */
async function downloadHref(root: HTMLElement, previous?: string): Promise<string> {
  let href = ''
  await waitFor(
    () => {
      const link = [...root.querySelectorAll<HTMLAnchorElement>('a[download]')].find((a) => a.textContent === 'Download .md2')
      href = link?.getAttribute('href') ?? ''
      expect(link, 'the Download .md2 link').toBeDefined()
      expect(link!.download).toBe(FILE_NAME)
      expect(href).toMatch(/^blob:/)
      expect(href).not.toBe(previous)
    },
    { timeout: 60_000 },
  )
  return href
}

/** The bytes behind the download link, parsed. */
async function downloaded(href: string) {
  const bytes = new Uint8Array(await (await fetch(href)).arrayBuffer())
  return { bytes, model: parseMD2(bytes, { name: FILE_NAME }) }
}

/** The readout's numbers as shown. */
function readoutOf(root: HTMLElement): { bytes: number; frames: number; error: number; halfStep: number } {
  const text = root.querySelector('[role="status"]')?.textContent ?? ''
  const number = (pattern: RegExp) => Number((pattern.exec(text)?.[1] ?? 'NaN').replace(/,/g, ''))
  return {
    bytes: number(/: ([\d,]+) bytes/),
    frames: number(/(\d+) frames/),
    error: number(/max quantization error: ([\d.]+)/),
    halfStep: number(/half a step: ([\d.]+)/),
  }
}

/**
 * Twisting torus, 16 frames: written, read back and playing. The play function downloads the
 * file through the button's Blob URL, parses it, and rebuilds with other controls.
 */
const twistingTorusStory: Story = {
  play: async ({ canvasElement, args }) => {
    const stage = await findStage(canvasElement)
    await stage.expectModel(undefined, 0.02)
    await stage.expectAnimated()

    // The button's href is a Blob URL holding the very file that plays.
    const href = await downloadHref(canvasElement)
    const first = await downloaded(href)
    await expect(first.model.frames.length).toBe(args.frames)
    await expect(first.model.header.offsetEnd).toBe(first.bytes.length)
    await expect(first.model.frames[0]!.name).toBe('twist000')
    await expect(first.model.animations.map((animation) => animation.name)).toEqual(['twist'])
    const shown = readoutOf(canvasElement)
    await expect(shown.bytes).toBe(first.bytes.length)
    await expect(shown.frames).toBe(args.frames)
    await expect(shown.error).toBeGreaterThan(0)
    await expect(shown.error).toBeLessThanOrEqual(shown.halfStep)

    // Fewer frames: a new file behind a new Blob URL, and it still plays.
    setStoryArgs({ frames: 6 })
    const fewerHref = await downloadHref(canvasElement, href)
    const fewer = await downloaded(fewerHref)
    await expect(fewer.model.frames.length).toBe(6)
    await expect(fewer.bytes.length).toBeLessThan(first.bytes.length)
    await waitFor(() => expect(readoutOf(canvasElement).frames).toBe(6))
    await stage.expectModel(undefined, 0.02)
    await stage.expectAnimated()

    // No twist: every frame written is the same pose.
    setStoryArgs({ twist: 0 })
    const flat = await downloaded(await downloadHref(canvasElement, fewerHref))
    await expect(flat.model.frames.length).toBe(6)
    const pose = flat.model.frames[0]!
    for (const frame of flat.model.frames) {
      await expect([...frame.vertices], `frame ${frame.name} vs ${pose.name}`).toEqual([...pose.vertices])
    }
    await stage.expectModel(undefined, 0.02)

    setStoryArgs({ frames: args.frames, twist: args.twist })
  },
}
const twistingTorusStoryFaces = splitStory(twistingTorusStory)
export const TwistingTorus: Story = twistingTorusStoryFaces.visible
/** Test only: drives the props of the story above and checks the pictures. */
export const TwistingTorusCheck: Story = { ...twistingTorusStoryFaces.check, tags: ['!dev', '!autodocs'] }
