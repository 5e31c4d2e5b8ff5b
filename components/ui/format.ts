// The console's one vocabulary lives in lib/words (shared with the command line); pages
// import it from here or from there alike.
export * from "@/lib/words/format";
