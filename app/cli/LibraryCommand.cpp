// trainscape-cli library [--db PATH|URL] add|list|show|versions|diff|tag|rm|export|import|backup
// (issue 14; the spec's "Command-line contracts" fix add, list --json, show, versions --json,
// export --out and import). The actions are in LibraryActions.cpp.

#include "CliCommands.h"
#include "LibraryActions.h"

namespace ts::cli {

namespace {

void addIdArgument(CLI::App* sub, LibraryArgs& args) {
    sub->add_option("ID", args.id, "The scenario's id in the library")->required();
}

void addLibrarySubcommands(CLI::App* lib, Options& options, LibraryArgs& args, CommandRunner& run) {
    CLI::App* add = lib->add_subcommand("add", "Add a scenario file to the library (or, with "
                                               "--to ID, save it as a new version)");
    add->add_option("FILE", args.file, "Scenario file (format trainscape.scenario/1)")->required();
    add->add_option("--note", args.note, "What this version is")->type_name("TEXT");
    add->add_option("--tag", args.tags, "A tag; repeatable")->type_name("T");
    add->add_option("--name", args.name, "Name in the library (default: the scenario's name)");
    add->add_option("--to", args.to, "Save as a new version of this scenario")->type_name("ID");
    add->add_option("--based-on", args.basedOn,
                    "The version this edit started from: refused when another was saved since")
        ->type_name("V");
    addJsonFlag(add, options);
    setRunner(add, run, [&] { return libraryAdd(options, args); });

    CLI::App* list = lib->add_subcommand("list", "List the scenarios");
    list->add_option("--search", args.search,
                     "Only those whose name, notes or tags contain "
                     "every word")
        ->type_name("TEXT");
    list->add_option("--tag", args.tags, "Only those with this tag")->type_name("T");
    addJsonFlag(list, options);
    setRunner(list, run, [&] { return libraryList(options, args); });

    CLI::App* show = lib->add_subcommand("show", "Print a version of a scenario (the latest by "
                                                 "default)");
    addIdArgument(show, args);
    show->add_option("--version", args.version, "Version number")->type_name("V");
    show->add_flag("--estimate", args.estimate,
                   "Print the version's estimate instead (cached; recomputed when the estimator "
                   "changed)");
    addJsonFlag(show, options);
    setRunner(show, run, [&] { return libraryShow(options, args); });

    CLI::App* versions = lib->add_subcommand("versions", "List a scenario's versions");
    addIdArgument(versions, args);
    addJsonFlag(versions, options);
    setRunner(versions, run, [&] { return libraryVersions(options, args); });

    CLI::App* diff = lib->add_subcommand("diff", "The keys that differ between two versions "
                                                 "(ID@V, or ID for the latest)");
    diff->add_option("A", args.a, "ID or ID@VERSION")->required();
    diff->add_option("B", args.b, "ID or ID@VERSION")->required();
    addJsonFlag(diff, options);
    setRunner(diff, run, [&] { return libraryDiff(options, args); });

    CLI::App* tag = lib->add_subcommand("tag", "Tag a scenario (or --remove the tags)");
    addIdArgument(tag, args);
    tag->add_option("TAG", args.tags, "Tags")->required();
    tag->add_flag("--remove", args.remove, "Remove these tags instead");
    setRunner(tag, run, [&] { return libraryTag(options, args); });

    CLI::App* rm = lib->add_subcommand("rm", "Delete a scenario with all its versions");
    addIdArgument(rm, args);
    setRunner(rm, run, [&] { return libraryRemove(options, args); });

    CLI::App* exp = lib->add_subcommand("export", "Write the library, or chosen scenarios, as "
                                                  "one JSON bundle");
    exp->add_option("ID", args.ids, "Scenarios to export (default: all)");
    exp->add_option("--out", args.out, "Bundle file to write")->required()->type_name("FILE");
    setRunner(exp, run, [&] { return libraryExport(options, args); });

    CLI::App* imp = lib->add_subcommand("import", "Add the scenarios of a bundle (new ids)");
    imp->add_option("FILE", args.file, "Bundle (format trainscape.library-bundle/1)")->required();
    addJsonFlag(imp, options);
    setRunner(imp, run, [&] { return libraryImport(options, args); });

    CLI::App* backup = lib->add_subcommand("backup", "A consistent copy of the whole library");
    backup->add_option("--out", args.out, "SQLite: a library file; PostgreSQL: a bundle")
        ->required()
        ->type_name("FILE");
    setRunner(backup, run, [&] { return libraryBackup(options, args); });
}

} // namespace

void addLibraryCommand(CLI::App& app, Options& options, CommandRunner& run) {
    static LibraryArgs args;
    CLI::App* lib = app.add_subcommand(
        "library", "The scenario library: SQLite file (default under $XDG_DATA_HOME) or a "
                   "PostgreSQL server shared by a team");
    lib->add_option("--db", args.db,
                    "Library: an SQLite file PATH or a postgresql:// URL (default: "
                    "$TRAINSCAPE_LIBRARY, else ~/.local/share/trainscape/library.sqlite)")
        ->envname("TRAINSCAPE_LIBRARY")
        ->type_name("PATH|URL");
    lib->require_subcommand(1, 1);
    lib->fallthrough();
    addLibrarySubcommands(lib, options, args, run);
}

} // namespace ts::cli
