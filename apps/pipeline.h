/* Message tags of the pipeline demo, shared by the source and its stages. */
#ifndef PVMMON_APPS_PIPELINE_H
#define PVMMON_APPS_PIPELINE_H

#define PIPE_TAG_SETUP 41  /* source -> stage: index, stages, items, units, prev and next tid */
#define PIPE_TAG_ITEM 42   /* source or stage -> next stage: item number and value */
#define PIPE_TAG_RESULT 43 /* last stage -> source: item number and final value */

#endif
