/**
 * Attachments on the CPU: N UFO:AI soldiers with a head on tag_head and a rifle on tag_rweapon
 * against N bodies alone, same run, alternating.
 */
import { createMD2 } from '../src/core/format/createMD2'
import { parseAnimationTable } from '../src/core/format/animationTable'
import { parseMD2 } from '../src/core/format/parseMD2'
import { parseMD2Tags } from '../src/core/tags/parseMD2Tags'
import { MD2Attach } from '../src/react/MD2Attach'
import { MD2Model } from '../src/react/MD2Model'
import { ASSETS, readArrayBuffer } from './lib/models'
import { compareScenes } from './lib/compare'
import { type Table, fmt, perFrameNote, ratio } from './lib/stats'
import { join } from 'node:path'
import { readFileSync } from 'node:fs'

const SOLDIER = join(ASSETS, 'ufoai/soldier-male')

export interface AttachmentsBenchOptions {
  count: number
  rounds: number
  frames: number
}

/** A one-frame box, standing in for a weapon (what matters here is one more synced mesh). */
function box() {
  const p = [0, 0, 0, 10, 0, 0, 0, 2, 0, 10, 2, 0, 0, 0, 2, 10, 0, 2, 0, 2, 2, 10, 2, 2]
  const t = [0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4, 2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5]
  return createMD2({ frames: [p], triangles: t, uvs: new Array(16).fill(0), skinWidth: 8, skinHeight: 8 })
}

export async function runAttachmentsBench(options: AttachmentsBenchOptions): Promise<Table> {
  const body = parseMD2(readArrayBuffer(join(SOLDIER, 'body.md2')), { name: 'body.md2' })
  const head = parseMD2(readArrayBuffer(join(SOLDIER, 'head01.md2')), { name: 'head01.md2' })
  const tags = parseMD2Tags(readArrayBuffer(join(SOLDIER, 'body.tag')), { name: 'body.tag' })
  const table = parseAnimationTable(readFileSync(join(SOLDIER, 'body.anm'), 'utf8'), 'body.anm')
  const rifle = box()
  const n = options.count
  const { bodies, armed } = await compareScenes(
    ['bodies', 'armed'],
    (kind) => (
      <>
        {Array.from({ length: n }, (_, i) => (
          <MD2Model key={i} model={body} tags={tags} animationTable={table} animation={i % 2 ? 'walk1' : 'stand1'} rotation-y={i * 0.1}>
            {kind === 'armed' && (
              <>
                <MD2Attach tag="tag_head">
                  <MD2Model model={head} />
                </MD2Attach>
                <MD2Attach tag="tag_rweapon">
                  <MD2Model model={rifle} />
                </MD2Attach>
              </>
            )}
          </MD2Model>
        ))}
      </>
    ),
    options,
  )
  const r = armed / bodies
  return {
    title: 'Attachments, CPU: soldiers with head and weapon vs bodies alone',
    note:
      perFrameNote(options) +
      `${n} UFO:AI soldiers (body.md2, 1,007 frames, walk1/stand1 from body.anm); "armed" adds head01.md2 on tag_head and a ` +
      'one-frame rifle on tag_rweapon, each placed every frame from body.tag (interpolated tag, one matrix per attachment).',
    head: ['soldiers', 'bodies ms', 'armed ms', 'ratio'],
    rows: [[n, fmt(bodies, 3), fmt(armed, 3), ratio(r, 2)]],
    footer: [`Attachments add ${fmt(((armed - bodies) / n) * 1000, 1)} µs per soldier per frame (two per soldier).`],
  }
}
