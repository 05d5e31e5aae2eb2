; The `#[metadata]` section holds TVM's node JSON.
((metadata_json) @injection.content
  (#set! injection.language "json"))
