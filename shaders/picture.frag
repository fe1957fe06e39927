#version 330 core
// One texel per cell place: alpha 1 data (its colour), 0.8 dimmed data,
// 0.5 padding, 0.38 dimmed padding, 0 no cell. Draws the same pixels as cells.frag does for cells at
// rest: inset gaps, hatched and outlined padding, the highlighted cell.
in vec2 v_cell;

uniform sampler2D u_tex;
uniform float u_zoom;        // pixels per cell
uniform float u_inset;       // gap around a cell, cell units
uniform vec2 u_hover;        // top-left of the highlighted cell, or (-1, -1)
uniform vec4 u_pad_col;
uniform vec4 u_outline_col;
uniform vec4 u_canvas;  // dimmed cells fade towards it

out vec4 o_col;

void main() {
    vec2 cell = floor(v_cell);
    vec4 t = texelFetch(u_tex, ivec2(cell), 0);
    if (t.a < 0.25) discard;
    vec2 f = v_cell - cell;
    if (min(f.x, f.y) < u_inset || max(f.x, f.y) > 1.0 - u_inset) discard;
    float side = (1.0 - 2.0 * u_inset) * u_zoom;
    vec2 px = (f - vec2(u_inset)) * u_zoom;
    float edge = min(min(px.x, side - px.x), min(px.y, side - px.y));
    vec4 c = vec4(t.rgb, 1.0);
    bool dimmed = (t.a > 0.3 && t.a < 0.45) || (t.a > 0.7 && t.a < 0.9);
    if (t.a < 0.6) {
        c = u_pad_col;
        float h = mod(gl_FragCoord.x + gl_FragCoord.y, 7.0);
        if (h < 1.6) c = u_outline_col;
        if (side >= 6.0 && edge < 1.0) c = u_outline_col;
    }
    if (dimmed) c.rgb = mix(c.rgb, u_canvas.rgb, 0.7);
    if (cell == u_hover) {
        float ring = side < 12.0 ? side : max(2.0, side * 0.2);
        if (edge < ring) c = vec4(1.0);
        if (side >= 12.0 && edge < 1.0) c = vec4(0.0, 0.0, 0.0, 1.0);
    }
    o_col = c;
}
