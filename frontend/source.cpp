// SourceFile: see source.h.
#include "frontend/source.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace tfs::frontend {

SourceFile::SourceFile(std::string path, std::string text)
    : path_(std::move(path)), text_(std::move(text)) {
  lineStarts_.push_back(0);
  for (size_t i = 0; i < text_.size(); ++i) {
    if (text_[i] == '\n')
      lineStarts_.push_back(i + 1);
    else if (text_[i] == '\r' && (i + 1 >= text_.size() || text_[i + 1] != '\n'))
      lineStarts_.push_back(i + 1);
  }
}

std::string_view SourceFile::line(uint32_t line) const {
  if (line == 0 || line > lineStarts_.size())
    return {};
  size_t begin = lineStarts_[line - 1];
  size_t end = line < lineStarts_.size() ? lineStarts_[line] : text_.size();
  while (end > begin && (text_[end - 1] == '\n' || text_[end - 1] == '\r'))
    --end;
  return std::string_view(text_).substr(begin, end - begin);
}

std::shared_ptr<SourceFile> readSourceFile(const std::string &path, std::string &error) {
  // An ifstream opens a directory without complaint (and reads nothing).
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    error = "can't open file '" + path + "': Is a directory";
    return nullptr;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "can't open file '" + path + "': " +
            (std::filesystem::exists(path, ec) ? "Permission denied" : "No such file or directory");
    return nullptr;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) {
    error = "can't read file '" + path + "'";
    return nullptr;
  }
  return std::make_shared<SourceFile>(path, ss.str());
}

}  // namespace tfs::frontend
