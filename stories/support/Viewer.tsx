import { useFrame } from '@react-three/fiber'
import { Component, useEffect, useMemo, useRef, useState, type CSSProperties, type DragEvent, type ReactNode, type RefObject } from 'react'
import { Box3, type Group, type Mesh, type MeshLambertMaterial } from 'three'
import { VertexNormalsHelper } from 'three/examples/jsm/helpers/VertexNormalsHelper.js'
import { archiveOfFiles, HEADER_FIELDS } from '../../src/core/internal'
import {
  exportGLTF,
  getMissingSkinTexture,
  isMD2Error,
  MD2Archive,
  MD2Attach,
  MD2Model,
  openArchive,
  parseMD2,
  parseMD2Tags,
  writeMD2,
  type MD2ArchiveFiles,
  type MD2ModelData,
  type MD2Tags,
} from '../../src/index'
import { bakedSource, GLTFPreview, type GLTFShown } from './bakedSource'
import { useStoryRenderer } from './renderers'
import { Stage } from './Stage'

/** Files a viewer opens: models, skins, animation tables and tags, or whole archives. */
const ARCHIVE = /\.(pak|pk3|zip)$/i
const GLTF = /\.(glb|gltf)$/i
const IMAGE = /\.(pcx|tga|png|jpe?g)$/i

/** What was dropped, as one archive (loose files become one). */
export interface ViewerSource {
  name: string
  archive: MD2ArchiveFiles
  /** A dropped glTF the archive's model was baked from, shown beside it. */
  gltf?: GLTFShown
}

/**
 * Reads dropped or picked files: the first archive among them, else the first glTF (baked to MD2 in the
 * page), else all of them as loose files.
 */
export async function sourceOfFiles(
  files: readonly { path: string; file: Blob }[],
  options: { simplify?: boolean } = {},
): Promise<ViewerSource> {
  const gltf = files.find((f) => GLTF.test(f.path))
  if (gltf && !files.some((f) => ARCHIVE.test(f.path) || /\.md2$/i.test(f.path)))
    return { name: gltf.path, ...(await bakedSource(gltf.path, new Uint8Array(await gltf.file.arrayBuffer()), options)) }
  const archived = files.find((f) => ARCHIVE.test(f.path))
  if (archived) {
    const bytes = new Uint8Array(await archived.file.arrayBuffer())
    return { name: archived.path, archive: openArchive(bytes, { name: archived.path }) }
  }
  const read = await Promise.all(files.map(async (f) => [f.path, new Uint8Array(await f.file.arrayBuffer())] as const))
  const top = commonFolder(files.map((f) => f.path))
  return { name: top || `${files.length} files`, archive: archiveOfFiles(read) }
}

function commonFolder(paths: string[]): string {
  const folders = paths.map((p) => p.slice(0, p.lastIndexOf('/') + 1))
  return folders.every((f) => f === folders[0]) ? (folders[0] ?? '') : ''
}

/** Every file under a dropped item, with its path inside the drop (folders walked). */
async function droppedFiles(transfer: DataTransfer): Promise<{ path: string; file: File }[]> {
  const entries = [...transfer.items].map((item) => item.webkitGetAsEntry?.()).filter((entry) => entry != null)
  if (entries.length === 0) return [...transfer.files].map((file) => ({ path: file.name, file }))
  const out: { path: string; file: File }[] = []
  const walk = async (entry: FileSystemEntry, prefix: string): Promise<void> => {
    if (entry.isFile) {
      const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject))
      out.push({ path: prefix + entry.name, file })
    } else if (entry.isDirectory) {
      const reader = (entry as FileSystemDirectoryEntry).createReader()
      for (;;) {
        const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject))
        if (batch.length === 0) break
        for (const child of batch) await walk(child, `${prefix}${entry.name}/`)
      }
    }
  }
  for (const entry of entries) await walk(entry, '')
  // A synthetic transfer (a test, some browsers) may list files without entries.
  return out.length > 0 ? out : [...transfer.files].map((file) => ({ path: file.name, file }))
}

interface Loaded {
  model?: MD2ModelData
  error?: string
  tags?: MD2Tags
  tagPath?: string
}

/** Parses the picked model (and its `.tag` next to it) for the panel; a damaged file is a message, not a crash. */
function loadModel(archive: MD2ArchiveFiles, path: string | undefined): Loaded {
  if (!path) return {}
  try {
    const bytes = archive.read(path)
    if (!bytes) return { error: `${path} is not in the archive` }
    const model = parseMD2(bytes, { name: path })
    const tagPath = `${path.replace(/\.md2$/i, '')}.tag`
    const tagBytes = archive.read(tagPath)
    let tags: MD2Tags | undefined
    try {
      tags = tagBytes ? parseMD2Tags(tagBytes, { name: tagPath }) : undefined
    } catch {
      tags = undefined
    }
    return { model, tags, tagPath: tags ? tagPath : undefined }
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) }
  }
}

export interface ViewerProps {
  /** Opened at start (a story's sample); the visitor's drops replace it. */
  initial?: ViewerSource
}

/**
 * A drop-in MD2 viewer: drop `.md2` files with their skins, a folder, or a `.pak`/`.pk3`/`.zip` (or an
 * animated `.glb`: baked to MD2 with `bakeMD2`, the source playing on the left, the MD2 on the right); pick a
 * model; play, scrub and loop its animations; switch skins; show wireframe, normals, bounds and tags;
 * read the header and warnings; export `.glb` or re-save `.md2`. Nothing leaves the browser.
 */
export function Viewer({ initial }: ViewerProps) {
  const renderer = useStoryRenderer()
  const [source, setSource] = useState<ViewerSource | undefined>(initial)
  const [dropError, setDropError] = useState<string>()
  const [tooDense, setTooDense] = useState<{ path: string; file: Blob }[]>()
  const [over, setOver] = useState(false)
  const models = useMemo(() => (source ? source.archive.entries.filter((e) => /\.md2$/i.test(e.name)).map((e) => e.name) : []), [source])
  const [picked, setPicked] = useState<string>()
  const path = picked && models.includes(picked) ? picked : (models.find((m) => /(^|\/)tris\.md2$/i.test(m)) ?? models[0])
  const loaded = useMemo(() => (source ? loadModel(source.archive, path) : {}), [source, path])
  const model = loaded.model
  const [animation, setAnimation] = useState<string>('')
  const [playing, setPlaying] = useState(true)
  const [loop, setLoop] = useState(true)
  const [fps, setFps] = useState(0)
  const [scrub, setScrub] = useState<number | undefined>(undefined)
  const [skin, setSkin] = useState('')
  const [wireframe, setWireframe] = useState(false)
  const [normals, setNormals] = useState(false)
  const [bounds, setBounds] = useState(false)
  const [showTags, setShowTags] = useState(true)
  const [frameShown, setFrameShown] = useState(0)
  const group = useRef<Group>(null)

  // A new model starts on its first animation, playing, with its own skin.
  useEffect(() => {
    setAnimation(model?.animations[0]?.name ?? '')
    setScrub(undefined)
    setSkin('')
    setPlaying(true)
  }, [model])

  const open = async (files: { path: string; file: Blob }[], simplify = false) => {
    try {
      if (files.length === 0) return
      setDropError(undefined)
      setTooDense(undefined)
      setSource(await sourceOfFiles(files, { simplify }))
      setPicked(undefined)
    } catch (error) {
      setDropError(error instanceof Error ? error.message : String(error))
      // A glTF past MD2's vertex or triangle limit: offer to simplify it to fit.
      if (isMD2Error(error) && error.code === 'UNWRITABLE' && /triangles|vertices/.test(error.section ?? '')) setTooDense(files)
    }
  }
  const onDrop = async (event: DragEvent) => {
    event.preventDefault()
    setOver(false)
    await open(await droppedFiles(event.dataTransfer))
  }

  const folder = path ? path.slice(0, path.lastIndexOf('/') + 1) : ''
  const skinFiles = source
    ? source.archive.entries.filter((e) => IMAGE.test(e.name) && e.name.startsWith(folder) && !e.name.slice(folder.length).includes('/'))
    : []
  const current = model?.animations.find((a) => a.name === animation)
  const skinProp = skin === '' ? undefined : skin

  const download = (bytes: Uint8Array, name: string, type: string) => {
    const url = URL.createObjectURL(new Blob([bytes.slice()], { type }))
    const a = Object.assign(document.createElement('a'), { href: url, download: name })
    a.click()
    setTimeout(() => URL.revokeObjectURL(url), 1000)
  }
  const base = (path ?? 'model').replace(/^.*\//, '').replace(/\.md2$/i, '')
  const exportGlb = async () => {
    if (!model) return
    const map = ((group.current?.children[0] as Mesh | undefined)?.material as MeshLambertMaterial | undefined)?.map
    const skinTexture = map && map !== getMissingSkinTexture() ? map : undefined
    download(await exportGLTF(model, { skin: skinTexture }), `${base}.glb`, 'model/gltf-binary')
  }

  return (
    <div
      data-testid="viewer-drop"
      onDragOver={(event) => {
        event.preventDefault()
        setOver(true)
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      style={{
        display: 'flex',
        height: '100vh',
        minHeight: 480,
        font: '13px/1.45 system-ui, sans-serif',
        color: '#e6edf3',
        background: '#11161d',
      }}
    >
      <aside style={panel}>
        <strong>MD2 viewer</strong>
        <p style={muted}>
          Drop .md2 files with their skins, a folder, or a .pak / .pk3 / .zip; or an animated .glb, baked to MD2 here and shown beside it.
          Nothing leaves the browser.
        </p>
        <label style={row}>
          Files{' '}
          <input type="file" multiple onChange={(e) => open([...(e.target.files ?? [])].map((file) => ({ path: file.name, file })))} />
        </label>
        <label style={row}>
          Folder{' '}
          <input
            type="file"
            {...({ webkitdirectory: '' } as object)}
            onChange={(e) => open([...(e.target.files ?? [])].map((file) => ({ path: file.webkitRelativePath || file.name, file })))}
          />
        </label>
        {dropError && <p style={errorStyle}>{dropError}</p>}
        {tooDense && (
          <button data-testid="viewer-simplify" onClick={() => open(tooDense, true)}>
            Simplify to fit MD2's limits (meshoptimizer)
          </button>
        )}
        {source && (
          <>
            <p style={muted}>
              {source.name}: {source.archive.kind === 'files' ? 'loose files' : source.archive.kind}, {source.archive.entries.length} files
              {source.gltf?.simplified &&
                `; simplified from ${source.gltf.simplified.triangles[0]} to ${source.gltf.simplified.triangles[1]} triangles, ` +
                  `${source.gltf.simplified.vertices[0]} to ${source.gltf.simplified.vertices[1]} vertices`}
            </p>
            <label style={column}>
              Model
              <select data-testid="viewer-model" value={path ?? ''} onChange={(e) => setPicked(e.target.value)}>
                {models.map((m) => (
                  <option key={m}>{m}</option>
                ))}
              </select>
            </label>
          </>
        )}
        {loaded.error && (
          <p role="alert" style={errorStyle}>
            {loaded.error}
          </p>
        )}
        {model && (
          <>
            <label style={column}>
              Animation
              <select
                data-testid="viewer-animation"
                value={animation}
                onChange={(e) => (setAnimation(e.target.value), setScrub(undefined))}
              >
                {model.animations.map((a) => (
                  <option key={a.name} value={a.name}>
                    {a.name} ({a.start}–{a.end})
                  </option>
                ))}
              </select>
            </label>
            <div style={row}>
              <button onClick={() => (setScrub(undefined), setPlaying(!playing))}>
                {playing && scrub === undefined ? 'Pause' : 'Play'}
              </button>
              <label>
                <input type="checkbox" checked={loop} onChange={(e) => setLoop(e.target.checked)} /> loop
              </label>
              <label>
                fps{' '}
                <input
                  type="number"
                  min={0}
                  max={60}
                  value={fps || (current?.fps ?? 10)}
                  onChange={(e) => setFps(Number(e.target.value))}
                  style={{ width: 48 }}
                />
              </label>
            </div>
            <label style={column}>
              Frame {scrub === undefined ? frameShown : scrub.toFixed(2)} / {model.header.numFrames - 1}
              <input
                data-testid="viewer-scrub"
                type="range"
                min={0}
                max={model.header.numFrames - 1}
                step={0.05}
                value={scrub ?? frameShown}
                onChange={(e) => setScrub(Number(e.target.value))}
              />
            </label>
            <label style={column}>
              Skin
              <select data-testid="viewer-skin" value={skin} onChange={(e) => setSkin(e.target.value)}>
                <option value="">the model's first ({model.skins[0] ?? 'none named'})</option>
                {model.skins.map((name) => (
                  <option key={`m:${name}`} value={name}>
                    named: {name}
                  </option>
                ))}
                {skinFiles.map((e) => (
                  <option key={`f:${e.name}`} value={e.name}>
                    file: {e.name.slice(folder.length)}
                  </option>
                ))}
              </select>
            </label>
            <div style={row}>
              {(
                [
                  ['wireframe', wireframe, setWireframe],
                  ['normals', normals, setNormals],
                  ['bounds', bounds, setBounds],
                  ['tags', showTags, setShowTags],
                ] as const
              ).map(([name, value, set]) => (
                <label key={name}>
                  <input
                    type="checkbox"
                    checked={value}
                    onChange={(e) => set(e.target.checked)}
                    disabled={name === 'tags' && !loaded.tags}
                  />{' '}
                  {name}
                </label>
              ))}
            </div>
            <div style={row}>
              <button onClick={exportGlb}>Export .glb</button>
              <button onClick={() => download(writeMD2(model), `${base}.md2`, 'application/octet-stream')}>Save .md2</button>
            </div>
            <table data-testid="viewer-header" style={{ borderCollapse: 'collapse', fontSize: 12 }}>
              <tbody>
                {HEADER_FIELDS.map((field) => (
                  <tr key={field}>
                    <td style={muted}>{field}</td>
                    <td style={{ textAlign: 'right' }}>{String(model.header[field])}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <div data-testid="viewer-warnings">
              {model.warnings.length === 0 ? (
                <p style={muted}>No warnings.</p>
              ) : (
                model.warnings.map((w) => (
                  <p key={w} style={warnStyle}>
                    {w}
                  </p>
                ))
              )}
            </div>
          </>
        )}
      </aside>
      <div style={{ flex: 1, position: 'relative', outline: over ? '3px dashed #58a6ff' : 'none', outlineOffset: -3 }}>
        <Stage key={renderer} renderer={renderer}>
          {source && path && model && (
            <ViewerBoundary key={`${source.name}:${path}`}>
              {source.gltf && (
                <group position={[-20, -24, 0]}>
                  <GLTFPreview gltf={source.gltf} animation={animation} frame={scrub} />
                </group>
              )}
              <MD2Archive archive={source.archive}>
                <group position={source.gltf ? [10, -24, 0] : [0, 0, 0]}>
                  <MD2Model
                    ref={group}
                    url={path}
                    skin={skinProp}
                    animation={animation || undefined}
                    playing={playing}
                    loop={loop}
                    fps={fps || undefined}
                    frame={scrub}
                    wireframe={wireframe}
                    tags={showTags ? loaded.tags : undefined}
                    onFrame={(frame) => setFrameShown(frame)}
                  >
                    {showTags &&
                      loaded.tags?.names.map((name) => (
                        <MD2Attach key={name} tag={name}>
                          <axesHelper args={[10]} />
                        </MD2Attach>
                      ))}
                  </MD2Model>
                </group>
                <Helpers group={group} normals={normals} bounds={bounds} />
              </MD2Archive>
            </ViewerBoundary>
          )}
        </Stage>
      </div>
    </div>
  )
}

/** Vertex normals and the all-frames bounds of the drawn mesh, following it frame by frame. */
function Helpers({ group, normals, bounds }: { group: RefObject<Group | null>; normals: boolean; bounds: boolean }) {
  const [mesh, setMesh] = useState<Mesh>()
  useFrame(() => {
    const found = group.current?.children[0] as Mesh | undefined
    if (found !== mesh) setMesh(found)
  })
  const helper = useMemo(() => (mesh && normals ? new VertexNormalsHelper(mesh, 3, 0x58a6ff) : undefined), [mesh, normals])
  useEffect(() => () => helper?.dispose(), [helper])
  useFrame(() => helper?.update())
  const box = useMemo(() => (mesh && bounds ? new Box3().copy(mesh.geometry.boundingBox!) : undefined), [mesh, bounds])
  return (
    <>
      {helper && <primitive object={helper} />}
      {box && mesh && (
        <group matrixAutoUpdate={false} matrix={mesh.matrixWorld}>
          <box3Helper args={[box, 0xf0c040]} />
        </group>
      )}
    </>
  )
}

/** A model that fails to draw (a damaged skin is not one: it shows the checkerboard) leaves the viewer usable. */
class ViewerBoundary extends Component<{ children: ReactNode }, { error?: string }> {
  override state: { error?: string } = {}
  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error.message : String(error) }
  }
  override render() {
    return this.state.error ? null : this.props.children
  }
}

const panel: CSSProperties = {
  width: 300,
  padding: 12,
  overflowY: 'auto',
  display: 'flex',
  flexDirection: 'column',
  gap: 8,
  background: '#161b22',
  borderRight: '1px solid #30363d',
}
const row: CSSProperties = { display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap' }
const column: CSSProperties = { display: 'flex', flexDirection: 'column', gap: 2 }
const muted: CSSProperties = { color: '#8b949e', margin: 0 }
const errorStyle: CSSProperties = { color: '#ffd2d2', background: 'rgba(120,20,20,0.9)', padding: 6, borderRadius: 4, margin: 0 }
const warnStyle: CSSProperties = { color: '#f0c040', margin: 0, fontSize: 12 }
