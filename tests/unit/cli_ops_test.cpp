// `relay ops` as a user runs it: the text listing, the JSON form and the errors.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace {

struct Outcome {
  int status = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

// Runs `relay <args>`, keeping stdout and stderr apart (stderr goes through a temp file).
Outcome relay(const std::string& args) {
  char err_path[] = "/tmp/relay-ops-err-XXXXXX";
  int fd = mkstemp(err_path);
  if (fd >= 0) close(fd);
  std::string cmd = std::string(RELAY_BINARY) + " " + args + " 2>" + err_path;
  Outcome o;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) o.out.append(buf, n);
    int st = pclose(p);
    o.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  }
  std::ostringstream err;
  err << std::ifstream(err_path).rdbuf();
  o.err = err.str();
  std::remove(err_path);
  return o;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

const nlohmann::json* find_entry(const nlohmann::json& ops, const std::string& name) {
  for (const auto& op : ops)
    if (op["name"] == name) return &op;
  return nullptr;
}

const nlohmann::json* find_field(const nlohmann::json& op, const std::string& name) {
  for (const auto& f : op["attrs"]["fields"])
    if (f["name"] == name) return &f;
  return nullptr;
}

}  // namespace

TEST_CASE("relay ops --json: every operator, as data", "[cli][ops]") {
  Outcome o = relay("ops --json");
  REQUIRE(o.status == 0);
  CHECK(o.err.empty());
  nlohmann::json ops = nlohmann::json::parse(o.out);
  REQUIRE(ops.is_array());
  CHECK(ops.size() == 304);

  const nlohmann::json* conv = find_entry(ops, "nn.conv2d");
  REQUIRE(conv != nullptr);
  CHECK((*conv)["group"] == "nn");
  CHECK((*conv)["supported"] == true);
  CHECK((*conv)["pattern"] == "out-elementwise-fusable");
  CHECK((*conv)["args"] == nlohmann::json::array({"data", "weight"}));
  CHECK((*conv)["attrs"]["struct"] == "Conv2DAttrs");
  CHECK((*conv)["attrs"]["type_key"] == "relay.attrs.Conv2DAttrs");
  CHECK((*conv)["attrs"]["registered"] == true);
  CHECK((*conv)["has_relation"] == true);
  CHECK((*conv)["has_gradient"] == true);
  const nlohmann::json* argsort = find_entry(ops, "argsort");
  REQUIRE(argsort != nullptr);
  CHECK((*argsort)["has_gradient"] == false);
  CHECK(contains((*conv)["doc"].get<std::string>(), "nn.conv2d(data: NCHW, weight: OIHW) ->"));
  const nlohmann::json* channels = find_field(*conv, "channels");
  REQUIRE(channels != nullptr);
  CHECK((*channels)["type"] == "IndexExpr");
  CHECK((*channels)["default"] == "None");
  CHECK(!channels->contains("required"));

  const nlohmann::json* reshape = find_entry(ops, "reshape");
  REQUIRE(reshape != nullptr);
  const nlohmann::json* newshape = find_field(*reshape, "newshape");
  REQUIRE(newshape != nullptr);
  CHECK((*newshape)["required"] == true);
  CHECK(!newshape->contains("default"));

  const nlohmann::json* abs = find_entry(ops, "abs");
  REQUIRE(abs != nullptr);
  CHECK((*abs)["attrs"].is_null());
  CHECK((*abs)["pattern"] == "elementwise");

  const nlohmann::json* cumsum = find_entry(ops, "cumsum");
  REQUIRE(cumsum != nullptr);
  CHECK((*cumsum)["attrs"]["registered"] == false);

  const nlohmann::json* qconv = find_entry(ops, "qnn.conv2d");
  REQUIRE(qconv != nullptr);
  CHECK((*qconv)["supported"] == true);
  CHECK((*qconv)["group"] == "quantized");
}

TEST_CASE("relay ops: the text listing", "[cli][ops]") {
  Outcome o = relay("ops");
  REQUIRE(o.status == 0);
  CHECK(contains(o.out, "\nnn.conv2d(data, weight) [Conv2DAttrs] pattern=out-elementwise-fusable\n"
                        "    nn.conv2d(data: NCHW, weight: OIHW) ->"));
  CHECK(contains(o.out, "\nadd(lhs, rhs) pattern=broadcast\n"));
  CHECK(contains(o.out, "\ncumsum(data) [ScanopAttrs, unregistered] pattern=opaque\n"));
  CHECK(contains(o.out, "\nqnn.conv2d(data, weight, input_zero_point, kernel_zero_point, input_scale, "
                        "kernel_scale) [Conv2DAttrs] pattern=out-elementwise-fusable\n"));
  CHECK(contains(o.out, "\nqnn.softmax(x, scale, zero_point, output_scale, output_zero_point) [SoftmaxAttrs] "
                        "pattern=opaque\n"));
  CHECK(contains(o.out, "\nmemory.kill(to_free) pattern=opaque  (not supported yet)\n"));
  CHECK(contains(o.out, "# nn (74)\n"));
  // The summary leaves attribute schemas to `relay ops NAME`.
  CHECK(!contains(o.out, "channels: IndexExpr"));
}

TEST_CASE("relay ops NAME: the named operators with their attribute schemas", "[cli][ops]") {
  Outcome o = relay("ops nn.conv2d reshape");
  REQUIRE(o.status == 0);
  CHECK(o.out.rfind("nn.conv2d(data, weight)", 0) == 0);  // in the order asked, no heading
  CHECK(contains(o.out, "    group nn; type relation: yes; gradient (relay grad): yes\n"));
  CHECK(contains(o.out, "    attrs Conv2DAttrs (type key relay.attrs.Conv2DAttrs)\n"));
  CHECK(contains(o.out, "      channels: IndexExpr = None\n"));
  CHECK(contains(o.out, "      data_layout: String = \"NCHW\"\n"));
  CHECK(contains(o.out, "\nreshape(data) [ReshapeAttrs] pattern=injective\n"));
  CHECK(contains(o.out, "      newshape: IntegerArray (required)\n"));

  nlohmann::json two = nlohmann::json::parse(relay("ops --json nn.dense add").out);
  REQUIRE(two.size() == 2);
  CHECK(two[0]["name"] == "nn.dense");
  CHECK(two[1]["name"] == "add");
}

TEST_CASE("relay ops: unknown names and options are usage errors", "[cli][ops]") {
  Outcome o = relay("ops nn.conv2");
  CHECK(o.status == 2);
  CHECK(o.out.empty());
  CHECK(contains(o.err, "error: no operator is named `nn.conv2`"));
  CHECK(contains(o.err, "did you mean `nn.conv2d`?"));

  CHECK(relay("ops --no-such-option").status == 2);
  Outcome help = relay("ops --help");
  CHECK(help.status == 0);
  CHECK(contains(help.out, "usage: relay ops [--json] [NAME...]"));
  CHECK(contains(relay("--help").out, "  ops "));
}
