import type { Texture } from 'three'
import type { CrowdTagDecode } from './gpuDecodeGLSL.js'

/**
 * The GLSL decode's part for a follower crowd placed on its leader's tag (`CrowdTagDecode`): declared before
 * `md2Decode`, applied after a shell's push and before a shadow's flattening, so that a vertex is placed on the tag
 * in the follower's model space and then by the instance's matrix (the leader instance's), as `<MD2Attach>`
 * composes them. Its own module: only a crowd that follows a tag ships it.
 *
 * `md2TagAt`: the tag in one of the leader's frames (one texture row). `md2TagLerp`: between two frames, each axis
 * made unit again where they differ (as `tagTransform`). `md2Tag`: at the leader's instance's pose (`md2Pose` of its
 * row at the leader's time), the crossfade's outgoing pose's tag blended in by its weight. `md2TagAxis`: the tag's
 * z axis, which Quake II light's facing then reads through the instance's matrix.
 */
const DECLARATIONS = /* glsl */ `
uniform highp sampler2D md2Tags;
uniform float md2TagTime;
attribute vec4 md2TagClock;
attribute vec4 md2TagRange;
attribute vec4 md2TagFade;
vec3 md2TagAxis = vec3(0.0, 0.0, 1.0);
vec3 md2Unit(vec3 v) { float l = length(v); return l > 0.0 ? v / l : v; }
mat4 md2TagUnit(mat4 m) {
m[0].xyz = md2Unit(m[0].xyz); m[1].xyz = md2Unit(m[1].xyz); m[2].xyz = md2Unit(m[2].xyz);
return m;
}
mat4 md2TagAt(float f) {
int r = int(f);
vec4 a = texelFetch(md2Tags, ivec2(0, r), 0);
vec4 b = texelFetch(md2Tags, ivec2(1, r), 0);
vec4 c = texelFetch(md2Tags, ivec2(2, r), 0);
return mat4(vec4(a.xyz, 0.0), vec4(b.xyz, 0.0), vec4(c.xyz, 0.0), vec4(a.w, b.w, c.w, 1.0));
}
mat4 md2TagLerp(float f, float g, float t) {
mat4 m = md2TagAt(f);
if (t > 0.0 && t <= 1.0 && f != g) m = md2TagUnit(m + (md2TagAt(g) - m) * t);
return m;
}
mat4 md2Tag() {
float from; float to; float t; float fade;
md2Pose(md2TagClock, md2TagRange, md2TagTime, from, to, t, fade);
mat4 m = md2TagLerp(from, to, t);
if (fade > 0.0) m = md2TagUnit(m + (md2TagLerp(md2TagFade.x, md2TagFade.y, md2TagFade.z) - m) * min(fade, 1.0));
return m;
}
`

const APPLY = /* glsl */ `
mat4 md2OnTag = md2Tag();
md2Position = (md2OnTag * vec4(md2Position, 1.0)).xyz;
md2ObjectNormal = mat3(md2OnTag) * md2ObjectNormal;
md2TagAxis = md2OnTag[2].xyz;
`

/** Where each part goes in the decode (`gpuDecodeGLSL.ts`), and what it becomes. */
const PATCHES: [string, (anchor: string) => string][] = [
  ['void md2Decode() {', (anchor) => DECLARATIONS + anchor],
  ['#ifdef MD2_SHADOW\nfloat rise', (anchor) => APPLY + anchor],
  ['* instanceMatrix[2].xyz;', () => '* mat3(instanceMatrix) * md2TagAxis;'],
]

/** The GLSL decode (`decodeInGLSL`'s vertex shader) placing each vertex on the tag. */
export function placeOnTagGLSL(source: string): string {
  let out = source
  for (const [anchor, patch] of PATCHES) {
    // A missing anchor would draw the follower off its tag, silently: the decode changed under this patch.
    if (!out.includes(anchor)) throw new Error(`placeOnTagGLSL: the decode has no ${JSON.stringify(anchor)}`)
    out = out.replace(anchor, patch(anchor))
  }
  return out
}

/** A follower's tag as both decodes read it: `texture` (`createTagFrames`) and the leader's time, kept in `time`. */
export function tagDecode(texture: Texture, time: { value: number }): CrowdTagDecode {
  return {
    texture,
    time,
    key: `-tag${texture.id}`,
    patch(shader) {
      shader.uniforms.md2Tags = { value: texture }
      shader.uniforms.md2TagTime = time
      shader.vertexShader = placeOnTagGLSL(shader.vertexShader)
    },
  }
}
