#include "tests/support/process.hpp"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ll::test {

std::string shell_quote(const std::string& arg) {
    std::string q = "'";
    for (char c : arg) {
        if (c == '\'')
            q += "'\\''";
        else
            q += c;
    }
    return q + "'";
}

std::string make_temp_dir() {
    const char* base = std::getenv("TMPDIR");
    std::string templ = std::string(base && *base ? base : "/tmp") + "/layoutlab-test-XXXXXX";
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back('\0');
    if (!mkdtemp(buf.data())) throw std::runtime_error("mkdtemp failed");
    return std::string(buf.data());
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

bool file_exists(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0;
}

RunResult run_shell(const std::string& command_line) {
    std::string dir = make_temp_dir();
    std::string out_path = dir + "/stdout", err_path = dir + "/stderr";
    std::string full = "(" + command_line + ") >" + shell_quote(out_path) + " 2>" +
                       shell_quote(err_path) + " </dev/null";
    int status = std::system(full.c_str());
    RunResult r;
    if (status != -1 && WIFEXITED(status))
        r.code = WEXITSTATUS(status);
    else if (status != -1 && WIFSIGNALED(status))
        r.code = 128 + WTERMSIG(status);
    r.out = read_file(out_path);
    r.err = read_file(err_path);
    std::remove(out_path.c_str());
    std::remove(err_path.c_str());
    ::rmdir(dir.c_str());
    return r;
}

RunResult run_layoutlab(const std::vector<std::string>& args) {
#ifndef LAYOUTLAB_EXE
    (void)args;
    throw std::runtime_error("LAYOUTLAB_EXE not defined for this test target");
#else
    std::string cmd = shell_quote(LAYOUTLAB_EXE);
    for (const auto& a : args) cmd += " " + shell_quote(a);
    return run_shell(cmd);
#endif
}

}  // namespace ll::test
