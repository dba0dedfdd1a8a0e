import type { Meta, StoryObj } from '@storybook/react-vite'
import { useEffect, useState } from 'react'
import { MeshBasicMaterial, type Group, type Material, type Mesh, type Texture } from 'three'
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js'
import { BakedCharacter } from '../examples/snippets/rigged-to-md2'
import { convertToMD2, createSkinTexture, decodePCX, parseMD2, MD2Model, type MD2ModelData } from '../src/index'
import { buildCharacter, MIXAMO_CLIP } from './support/character'
import { coverage, difference, findStage } from './support/pixels'
import { exportPaintedRig, exportRig } from './support/rig'

/**
 * Mixamo's workflow without Mixamo: a high-poly character (about 3,900 vertices and 6,500 triangles in two
 * skinned meshes, past MD2's limits) built in the page with three.js, exported by GLTFExporter as three
 * downloads, each with one clip named `Armature|mixamo.com|Layer0` (the character with its idle, a walk
 * "without skin", a wave "with skin"), then baked by the docs' sample (`examples/snippets/rigged-to-md2.tsx`)
 * into one simplified MD2 playing as an `<MD2Model>`.
 */
function MixamoDownloads({ animation }: { animation: string }) {
  const [files, setFiles] = useState<{ name: string; url: string }[]>()
  useEffect(() => {
    const urls: string[] = []
    void Promise.all(
      (
        [
          ['idle', 'Idle', true],
          ['walk', 'Walk', false],
          ['wave', 'Wave', true],
        ] as const
      ).map(async ([name, clipName, skin]) => {
        const { scene, clips } = buildCharacter({ detail: 0.35, skin })
        const clip = clips.find((c) => c.name === clipName)!
        clip.name = MIXAMO_CLIP
        const url = URL.createObjectURL(new Blob([(await exportRig(scene, [clip])).slice()], { type: 'model/gltf-binary' }))
        urls.push(url)
        return { name, url }
      }),
    ).then(setFiles)
    return () => urls.forEach((url) => URL.revokeObjectURL(url))
  }, [])
  return files ? <BakedCharacter files={files} animation={animation} /> : null
}

const meta = {
  title: 'Tools/Rigged Character',
  component: MixamoDownloads,
  args: { animation: 'walk' },
  argTypes: { animation: { control: 'select', options: ['idle', 'walk', 'wave'] } },
  // Baked with its feet at 0 (MD2's origin where the file's is), 59 units tall.
  parameters: { stage: { camera: [40, 40, 100], target: [0, 28, 0], floor: 0 } },
} satisfies Meta<typeof MixamoDownloads>

export default meta
type Story = StoryObj<typeof meta>

/** Three downloads, one model: walking, simplified to fit Quake II. */
export const MixamoStyle: Story = {
  play: async ({ canvasElement }) => {
    const stage = await findStage(canvasElement)
    const first = await stage.until((p) => coverage(p) > 0.01, 'the baked character drawn', 60_000)
    await stage.until((p) => difference(first, p) > 50, 'the walk playing')
  },
}

/**
 * A character coloured three ways at once (a textured body, a club painted by its material's colour, a hat
 * coloured by vertex colours), on the left as three draws the glTF, on the right converted by `convertToMD2` (what
 * `react-three-md2 convert` runs) into one MD2 with one skin in Quake II's palette, drawn by `<MD2Model>`. Both
 * unlit, so that what is compared is the colour.
 */
/** How far each stands from the middle, and where the camera is. */
const APART = 24
const CAMERA: [number, number, number] = [0, 34, 110]

function ColoursSideBySide({ view }: { view: number }) {
  const [pair, setPair] = useState<{ source: Group; model: MD2ModelData; material: MeshBasicMaterial }>()
  useEffect(() => {
    let material: MeshBasicMaterial | undefined
    void exportPaintedRig().then(async (glb) => {
      const parse = () => new GLTFLoader().parseAsync(glb.slice().buffer, '')
      const [baking, shown] = await Promise.all([parse(), parse()])
      shown.scene.traverse((node) => {
        const mesh = node as Mesh
        if (!mesh.isMesh) return
        const { map, color, vertexColors } = mesh.material as Material & {
          map: Texture | null
          color: MeshBasicMaterial['color']
          vertexColors: boolean
        }
        mesh.material = new MeshBasicMaterial({ map, color, vertexColors })
      })
      const converted = convertToMD2(baking.scene, [], { scale: 32, skinName: 'painted.pcx' })
      // Unlit, as the source beside it.
      material = new MeshBasicMaterial({ map: createSkinTexture(decodePCX(converted.skin!.data)) })
      setPair({ source: shown.scene, model: parseMD2(converted.data), material })
    })
    return () => {
      material?.map?.dispose()
      material?.dispose()
    }
  }, [])
  if (!pair) return null
  const turn = (view * Math.PI) / 180
  // Each turned to the camera first, so that both are seen from the same side.
  const toCamera = Math.atan2(APART, CAMERA[2])
  return (
    <>
      <group position={[-APART, 0, 0]} rotation-y={turn + toCamera}>
        <primitive object={pair.source} scale={32} />
      </group>
      <group position={[APART, 0, 0]} rotation-y={turn - toCamera}>
        <MD2Model model={pair.model} material={pair.material} />
      </group>
    </>
  )
}

/** Source (left) and conversion (right): every material in one skin; turn them with `view`. */
export const ColoursBaked: StoryObj<typeof ColoursSideBySide> = {
  render: (args) => <ColoursSideBySide {...args} />,
  args: { view: 30 },
  argTypes: { view: { control: { type: 'range', min: -180, max: 180, step: 15 } } },
  parameters: { stage: { camera: CAMERA, target: [0, 26, 0], floor: 0 } },
  play: async ({ canvasElement }) => {
    const stage = await findStage(canvasElement)
    // Both drawn: the source on the left half, the conversion on the right.
    await stage.until((p) => coverage(p, { right: 0.5 }) > 0.01 && coverage(p, { left: 0.5 }) > 0.01, 'the source and its conversion drawn')
  },
}
