import type { Meta, StoryObj } from '@storybook/react-vite'
import { useEffect, useState } from 'react'
import { BakedCharacter } from '../examples/snippets/rigged-to-md2'
import { buildCharacter, MIXAMO_CLIP } from './support/character'
import { coverage, difference, findStage } from './support/pixels'
import { exportRig } from './support/rig'

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
