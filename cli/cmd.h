/* cmd.h - one entry point per subcommand, each in cli/cmd_<name>.c. */
#ifndef KTC_CLI_CMD_H
#define KTC_CLI_CMD_H

int cmd_annotate(int argc, char **argv);
int cmd_optimize(int argc, char **argv);
int cmd_space(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_landscape(int argc, char **argv);
int cmd_apply(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_export(int argc, char **argv);

#endif
