#include "app/render/gl_programs.hpp"

#include <glad/gl.h>
#include <layoutlab_shaders.hpp>

#include <stdexcept>
#include <string>

namespace ll::render {

namespace {

SharedGl& shared() {
    static SharedGl s;
    return s;
}

GLuint compile(GLenum type, const char* src) {
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, nullptr);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[2048];
        glGetShaderInfoLog(s, sizeof log, nullptr, log);
        throw std::runtime_error(std::string("shader compile failed: ") + log);
    }
    return s;
}

GLuint link(const char* vs, const char* fs) {
    GLuint v = compile(GL_VERTEX_SHADER, vs), f = compile(GL_FRAGMENT_SHADER, fs);
    GLuint p = glCreateProgram();
    glAttachShader(p, v);
    glAttachShader(p, f);
    glLinkProgram(p);
    glDeleteShader(v);
    glDeleteShader(f);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[2048];
        glGetProgramInfoLog(p, sizeof log, nullptr, log);
        throw std::runtime_error(std::string("shader link failed: ") + log);
    }
    return p;
}

}  // namespace

SharedGl& gl() {
    SharedGl& s = shared();
    if (s.ready) return s;
    s.draw = link(shaders::cells_vert, shaders::cells_frag);
    s.pick = link(shaders::cells_vert, shaders::cells_pick_frag);
    s.picture = link(shaders::picture_vert, shaders::picture_frag);
    glGenTextures(1, &s.pick_tex);
    glBindTexture(GL_TEXTURE_2D, s.pick_tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R32I, 1, 1, 0, GL_RED_INTEGER, GL_INT, nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glGenFramebuffers(1, &s.pick_fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, s.pick_fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, s.pick_tex, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glBindTexture(GL_TEXTURE_2D, 0);
    s.ready = true;
    return s;
}

void release_shared_gl() {
    SharedGl& s = shared();
    if (!s.ready) return;
    glDeleteProgram(s.draw);
    glDeleteProgram(s.pick);
    glDeleteProgram(s.picture);
    glDeleteFramebuffers(1, &s.pick_fbo);
    glDeleteTextures(1, &s.pick_tex);
    s = SharedGl{};
}

}  // namespace ll::render
