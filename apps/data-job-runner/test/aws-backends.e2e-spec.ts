import { describeAwsBackend } from './aws/aws-backend-table.js';
import { batchRow } from './aws/batch.row.js';
import { emrServerlessRow } from './aws/emr-serverless.row.js';
import { glueRow } from './aws/glue.row.js';
import { sagemakerPipelinesRow } from './aws/sagemaker-pipelines.row.js';
import { stepFunctionsRow } from './aws/step-functions.row.js';

// The AWS backends, one row each: every row is held to the same promises against its stand-in.
describeAwsBackend(batchRow);
describeAwsBackend(emrServerlessRow);
describeAwsBackend(glueRow);
describeAwsBackend(sagemakerPipelinesRow);
describeAwsBackend(stepFunctionsRow);
