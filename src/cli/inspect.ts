import { HEADER_SIZE, SKIN_NAME_SIZE, ST_SIZE, TRIANGLE_SIZE } from '../core/format/spec.js'
import type { MD2Animation, MD2Header, MD2ModelData } from '../core/format/types.js'
import { printable } from '../core/printable.js'

export interface SectionReport {
  name: 'header' | 'skins' | 'st' | 'triangles' | 'frames' | 'glcmds'
  offset: number
  count: number
  itemSize: number
  bytes: number
  end: number
}

/** Everything `inspect` prints, also its `--json` output. */
export interface InspectReport {
  file: string
  bytes: number
  header: MD2Header
  /** In file order (by offset), then the empty sections (whose offsets mean nothing). */
  sections: SectionReport[]
  skins: string[]
  frameNames: string[]
  animations: MD2Animation[]
  glCommands: { strips: number; fans: number; words: number }
  warnings: string[]
}

function sections(header: MD2Header): SectionReport[] {
  const list: [SectionReport['name'], number, number, number][] = [
    ['header', 0, 1, HEADER_SIZE],
    ['skins', header.offsetSkins, header.numSkins, SKIN_NAME_SIZE],
    ['st', header.offsetST, header.numST, ST_SIZE],
    ['triangles', header.offsetTris, header.numTris, TRIANGLE_SIZE],
    ['frames', header.offsetFrames, header.numFrames, header.frameSize],
    ['glcmds', header.offsetGlCmds, header.numGlCmds, 4],
  ]
  return list
    .map(([name, offset, count, itemSize]) => ({ name, offset, count, itemSize, bytes: count * itemSize, end: offset + count * itemSize }))
    .sort((a, b) => Number(a.bytes === 0) - Number(b.bytes === 0) || a.offset - b.offset)
}

export function inspectReport(file: string, bytes: number, model: MD2ModelData): InspectReport {
  const strips = model.glCommands.filter((command) => command.mode === 'strip').length
  return {
    file,
    bytes,
    header: model.header,
    sections: sections(model.header),
    skins: model.skins,
    frameNames: model.frameNames.slice(),
    animations: model.animations,
    glCommands: { strips, fans: model.glCommands.length - strips, words: model.glCommandData.length },
    warnings: model.warnings,
  }
}

function table(rows: string[][], rightAligned: boolean[]): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)))
  return rows.map(
    (row) =>
      '  ' +
      row
        .map((cell, c) => (rightAligned[c] ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!)))
        .join('  ')
        .trimEnd(),
  )
}

/**
 * The report as text: a summary, then sections, animations, skins and warnings. Every name the file holds, and
 * every warning quoting one, is shown `printable` (a control character escaped, never sent to the terminal).
 */
export function formatInspectReport(report: InspectReport): string {
  const h = report.header
  const lines = [
    printable(report.file),
    `  ${report.bytes} bytes, MD2 version ${h.version}, skin ${h.skinWidth}×${h.skinHeight}`,
    `  ${h.numVertices} vertices, ${h.numST} st, ${h.numTris} triangles, ${h.numFrames} frames of ${h.frameSize} bytes, ${h.numSkins} skins`,
    `  GL commands: ${report.glCommands.strips} strips, ${report.glCommands.fans} fans, ${report.glCommands.words} words`,
    '',
    'sections',
    ...table(
      [
        ['name', 'offset', 'count', 'size', 'bytes', 'end'],
        ...report.sections.map((s) => [s.name, s.offset, s.count, s.itemSize, s.bytes, s.end].map(String)),
      ],
      [false, true, true, true, true, true],
    ),
    `  ofs_end ${h.offsetEnd}${h.offsetEnd === report.bytes ? '' : ` (the data has ${report.bytes} bytes)`}`,
    '',
    `animations (${report.animations.length})`,
    ...(report.animations.length === 0
      ? ['  none']
      : table(
          report.animations.map((a) => [
            printable(a.name),
            `${a.start}–${a.end}`,
            `${a.end - a.start + 1} frame${a.end === a.start ? '' : 's'}`,
            `${a.fps} fps`,
            printable(a.source ?? ''),
          ]),
          [false, true, true, true, false],
        )),
    '',
    `skins (${report.skins.length})`,
    ...(report.skins.length === 0 ? ['  none'] : report.skins.map((skin) => `  ${printable(skin)}`)),
    '',
    `warnings (${report.warnings.length})`,
    ...(report.warnings.length === 0 ? ['  none'] : report.warnings.map((warning) => `  ${printable(warning)}`)),
  ]
  return lines.join('\n') + '\n'
}
