// GL resources every cell view shares: the cell, pick and picture programs
// (shaders/), and the 1x1 integer target a GPU pick draws into. Created on
// first use, with the context current; release_shared_gl() before the
// context goes away.
#pragma once

namespace ll::render {

struct SharedGl {
    unsigned draw = 0, pick = 0, picture = 0;  // GL names (GLuint)
    unsigned pick_fbo = 0, pick_tex = 0;
    bool ready = false;
};

// The programs, compiled and linked on first call.
SharedGl& gl();
void release_shared_gl();

// Stage places of hidden cells in the instance buffers (the vertex shader
// moves them off screen).
constexpr float kHidden = -1e30f;

}  // namespace ll::render
