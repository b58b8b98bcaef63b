fn main() -> std::process::ExitCode {
    fuda::cli::main()
}
