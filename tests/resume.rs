//! The tools that grow a table resumably (`--out`) read it before they
//! write: a table they cannot read is an error that names it, and stays as
//! it was, rather than read as empty and written over.

mod common;

#[test]
fn a_table_that_cannot_be_read_is_refused_and_left_alone() {
    let dir = common::temp_dir("resume");
    // Not text: a binary given as --out by mistake, say.
    let contents: &[u8] = &[0x7f, b'E', b'L', b'F', 0xff, 0xfe, 0x00, b'\n'];
    let tools: [&[&str]; 5] = [
        &["book", "--gaps", "AB"],
        &["book-merge"],
        &["traps"],
        &["keep-set"],
        &["solve", "--all-gaps"],
    ];
    for tool in tools {
        let out = dir.join(format!("{}.txt", tool[0]));
        std::fs::write(&out, contents).unwrap();
        let out_arg = out.to_str().unwrap();
        let mut args = tool.to_vec();
        args.extend(["--out", out_arg]);
        let (ok, _, stderr) = common::run_binary(&args, b"");
        assert!(!ok, "{tool:?} went on: {stderr}");
        assert!(
            stderr.contains(out_arg),
            "{tool:?} did not name the file: {stderr}"
        );
        assert_eq!(
            std::fs::read(&out).unwrap(),
            contents,
            "{tool:?} wrote over it"
        );
    }
    // A table not there yet is an empty one (here the merge of no files).
    let fresh = dir.join("fresh.txt");
    let (ok, _, stderr) =
        common::run_binary(&["book-merge", "--out", fresh.to_str().unwrap()], b"");
    assert!(ok, "{stderr}");
}
