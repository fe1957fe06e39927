#version 330 core
// A stage at rest drawn as one picture: a quad over the stage's grid whose
// texture holds one texel per cell place (see picture.frag).
layout(location = 0) in vec2 a_corner;  // unit quad, 0..1

uniform vec4 u_xform;  // ndc = p * u_xform.xy + u_xform.zw (cell units)
uniform vec2 u_size;   // grid extent, cells

out vec2 v_cell;  // cell-space position

void main() {
    v_cell = a_corner * u_size;
    gl_Position = vec4(v_cell * u_xform.xy + u_xform.zw, 0.0, 1.0);
}
