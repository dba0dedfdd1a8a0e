/**
 * A tagged follower's GLSL decode (`tagDecodeGLSL.ts`) is patched into the crowd's at three places: it must find each
 * of them in the decode as the crowd's materials build it (a change to the decode that moved one would draw the
 * follower off its tag), for every look, Lambert and Quake II light, shells and shadows. The browser tests
 * (`crowd-armed.test.tsx`) compile and draw it.
 */
import {
  DataTexture,
  MeshBasicMaterial,
  MeshDepthMaterial,
  MeshLambertMaterial,
  ShaderLib,
  type Material,
  type WebGLProgramParametersWithUniforms,
} from 'three'
import { describe, expect, it } from 'vitest'
import { decodeInGLSL, type GpuDecodeInputs } from '../../src/three/materials/gpuDecodeGLSL'
import { placeOnTagGLSL, tagDecode } from '../../src/three/materials/tagDecodeGLSL'
import { CrowdShaderState } from '../../src/three/crowd/gpu/CrowdShaderState'

const texture = new DataTexture(new Float32Array(12), 3, 1)
const inputs = { frames: texture, table: texture, normals: texture, light: texture, vertices: 1 } as unknown as GpuDecodeInputs

/** The vertex shader `material` compiles to as the crowd builds it (three's own chunks, then the decode's). */
function compiled(
  material: Material,
  shader: keyof typeof ShaderLib,
  options: Parameters<typeof decodeInGLSL>[2],
): WebGLProgramParametersWithUniforms {
  decodeInGLSL(material, inputs, options)
  const chunks = ShaderLib[shader]!
  const parameters = {
    vertexShader: chunks.vertexShader,
    fragmentShader: chunks.fragmentShader,
    uniforms: {},
  } as unknown as WebGLProgramParametersWithUniforms
  material.onBeforeCompile(parameters, undefined as never)
  return parameters
}

describe("a tagged follower's GLSL decode", () => {
  const looks = [
    ['Lambert', () => new MeshLambertMaterial(), 'lambert', { normals: true }],
    ['Quake II light', () => new MeshBasicMaterial({ vertexColors: true }), 'basic', { quake2Light: true }],
    ['a shell', () => new MeshBasicMaterial(), 'basic', { shell: true, instanceColor: true }],
    ['a blob shadow', () => new MeshBasicMaterial(), 'basic', { shadow: true }],
    ['the shadow map', () => new MeshDepthMaterial(), 'depth', {}],
  ] as const

  it.each(looks)('is patched into the decode with %s, placing the vertex before a shadow flattens it', (_, make, shader, look) => {
    const state = new CrowdShaderState(1)
    state.tag = tagDecode(texture, state.uniforms.md2Time)
    const material = make()
    const program = compiled(material, shader, { state, ...look })
    const source = program.vertexShader
    expect(source).toContain('mat4 md2Tag()')
    expect(source).toContain('mat4 md2OnTag = md2Tag();')
    expect(source.indexOf('mat4 md2OnTag')).toBeLessThan(source.indexOf('#ifdef MD2_SHADOW\nfloat rise'))
    expect(source.indexOf('#ifdef MD2_SHELL\nmd2Position')).toBeLessThan(source.indexOf('mat4 md2OnTag'))
    expect(source).toContain('* mat3(instanceMatrix) * md2TagAxis;')
    expect(program.uniforms.md2Tags).toEqual({ value: texture })
    // The leader's own time uniform: nothing copied per frame.
    expect(program.uniforms.md2TagTime).toBe(state.uniforms.md2Time)
    // One program per tag texture; none without a tag.
    expect(material.customProgramCacheKey()).toContain(`-tag${texture.id}`)
    state.tag = undefined
    expect(material.customProgramCacheKey()).not.toContain('-tag')
  })

  it('says so when the decode it patches lacks a place it goes', () => {
    expect(() => placeOnTagGLSL('void main() {}')).toThrow(/the decode has no "void md2Decode\(\) \{"/)
  })
})
